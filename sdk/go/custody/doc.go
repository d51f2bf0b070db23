// Custody vaults and vault addresses, and read-only data sources of the custody API.
package custody
