package hostkit

import (
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	"google.golang.org/grpc"
)

// DefaultVersion is the version a host reports when the build did not stamp one; scripts/install-pulumi.sh
// sets the same version ldflag as for the CLI (github.com/pulumi/pulumi/sdk/v3/go/common/version.Version).
const DefaultVersion = "3.248.0"

// PluginVersion is the version a host reports in GetPluginInfo and to `-version`.
func PluginVersion() string {
	if v := strings.TrimPrefix(version.Version, "v"); v != "" {
		return v
	}
	return DefaultVersion
}

// Serve listens on a loopback port, prints the port as the first line of stdout, where the engine reads
// it, and serves srv until it stops. A failure is printed under the host's name and exits the process.
func Serve(name string, srv *grpc.Server) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: could not listen: %v\n", name, err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", lis.Addr().(*net.TCPAddr).Port)
	if err := srv.Serve(lis); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}
