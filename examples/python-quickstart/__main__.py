"""Quickstart in Python: an Ethereum vault, and a Bitcoin testnet vault with one deposit address.

Further vaults can be listed in the stack config (`vaults`), so that trying a rename, an archive or an adoption
needs no edit of this file.
"""

import pulumi
import pulumi_custody as custody

config = pulumi.Config()

# `name` is the vault's name in the custody platform (unique in the organization); changing it renames the
# vault. The first argument is Pulumi's name for the resource and never changes.
treasury = custody.Vault(
    "treasury",
    name=config.get("treasuryName") or "Quickstart Treasury",
    type=custody.VaultType.EVM,
)

# UTXO vaults live on one chain and can hand out many addresses.
bitcoin = custody.Vault(
    "bitcoin",
    name=config.get("bitcoinName") or "Quickstart Bitcoin",
    type=custody.VaultType.UTXO,
    chain=custody.VaultChain.BITCOIN_TESTNET,
)
deposits = custody.VaultAddress(
    "deposits",
    vault_id=bitcoin.id,
    name="Deposits",
    address_type=custody.VaultAddressAddressType.SEGWIT,
)

# More vaults from the stack config, by Pulumi name:
#   pulumi config set --path 'vaults.cold.name' 'Quickstart Cold'
#   pulumi config set --path 'vaults.cold.type' utxo
#   pulumi config set --path 'vaults.cold.chain' bitcoin_testnet
# Removing one archives the vault (the custody API cannot delete vaults); listing it again restores it.
# `adoptExisting: true` takes over a vault of that name made outside Pulumi instead of failing on the name.
extra = {}
for key, spec in (config.get_object("vaults") or {}).items():
    missing = [field for field in ("name", "type") if not isinstance(spec, dict) or field not in spec]
    if missing:
        raise ValueError(f"stack config vaults.{key}: {' and '.join(missing)} required (a vault needs a name and a type)")
    extra[key] = custody.Vault(
        key,
        name=spec["name"],
        type=spec["type"],
        chain=spec.get("chain"),
        adopt_existing=spec.get("adoptExisting"),
    )

pulumi.export("treasuryVaultId", treasury.id)
pulumi.export("treasuryAddress", treasury.address)
pulumi.export("depositAddress", deposits.address)
pulumi.export("vaultStates", {key: vault.state for key, vault in {"treasury": treasury, "bitcoin": bitcoin, **extra}.items()})
