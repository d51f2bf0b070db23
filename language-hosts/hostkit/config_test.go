package hostkit

import (
	"reflect"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// The SDKs parse both variables unconditionally, so an empty configuration must still be valid JSON.
func TestConfigEnvIsValidJSONEvenWhenEmpty(t *testing.T) {
	got, err := ConfigEnv(&pulumirpc.RunRequest{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"PULUMI_CONFIG={}", "PULUMI_CONFIG_SECRET_KEYS=[]"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ConfigEnv = %q, want %q", got, want)
	}
}

func TestConfigEnvCarriesValuesAndSecretKeys(t *testing.T) {
	got, err := ConfigEnv(&pulumirpc.RunRequest{
		Config:           map[string]string{"custody:accessToken": "t\"k"},
		ConfigSecretKeys: []string{"custody:accessToken"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`PULUMI_CONFIG={"custody:accessToken":"t\"k"}`, `PULUMI_CONFIG_SECRET_KEYS=["custody:accessToken"]`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ConfigEnv = %q, want %q", got, want)
	}
}
