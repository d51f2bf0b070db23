package hostkit

import (
	"encoding/json"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// ConfigEnv is the stack's configuration as the language SDKs read it at start-up: PULUMI_CONFIG (a JSON
// object of key to value) and PULUMI_CONFIG_SECRET_KEYS (a JSON array of the secret keys), both present,
// as `{}` and `[]` when empty.
func ConfigEnv(req *pulumirpc.RunRequest) ([]string, error) {
	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	configJSON, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("encoding config: %w", err)
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, fmt.Errorf("encoding config secret keys: %w", err)
	}
	return []string{"PULUMI_CONFIG=" + string(configJSON), "PULUMI_CONFIG_SECRET_KEYS=" + string(secretKeysJSON)}, nil
}
