// Package hostkit is what the project's language hosts (language-hosts/nodejs, language-hosts/python and
// language-hosts/go) do the same way: learn the engine's address, serve gRPC on a port they
// print, run a program as a tracked child process and report how it ended, kill their children when
// the engine is gone, and hand code generation to pkg/v3/codegen of the same Pulumi version.
//
// Each host requires this module through a replace directive (`../hostkit`), so it is built from the
// repository and never fetched.
package hostkit
