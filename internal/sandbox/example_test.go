package sandbox_test

import (
	"fmt"
	"os"
	"os/exec"

	"github.com/guardsh/guardsh/internal/sandbox"
)

// Start runs a command in a jail that may write only beneath the
// workspace and /tmp, may not read ~/.ssh and may not reach the network.
// The kernel's refusals reach the command as EACCES.
func ExampleStart() {
	if why := sandbox.Unavailable(); why != "" {
		fmt.Println("sandbox", why) // the command would ask instead
		return
	}
	home, _ := os.UserHomeDir()
	cmd := exec.Command("/bin/bash", "-c", "echo ok > built.txt; echo no > /etc/guardsh-example")
	cmd.Dir = "/tmp"
	cmd.Stderr = os.Stderr // "/etc/guardsh-example: Permission denied"
	err := sandbox.Start(cmd, sandbox.Spec{
		Write:  []string{"/tmp"},
		Hidden: []string{home + "/.ssh"},
	})
	if err == nil {
		err = cmd.Wait()
	}
	fmt.Println(err)
}
