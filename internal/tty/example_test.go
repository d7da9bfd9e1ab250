package tty_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/guardsh/guardsh/internal/tty"
)

// Play writes a recording's output events; input, resize and marker
// events are left out.
func ExamplePlay() {
	cast := `{"version": 2, "width": 80, "height": 24}
[0.01, "o", "hello\n"]
[0.02, "i", "typed"]
[0.03, "r", "100x30"]
[0.04, "o", "bye\n"]
`
	res, err := tty.Play(os.Stdout, strings.NewReader(cast), tty.PlayOptions{Speed: 100})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d events, %d bytes of output, %dx%d\n", res.Events, res.Output, res.Header.Width, res.Header.Height)
	// Output:
	// hello
	// bye
	// 4 events, 10 bytes of output, 80x24
}
