package interp

import "testing"

func TestNoOpStatus(t *testing.T) {
	for _, tc := range []struct {
		text   string
		status int
		ok     bool
	}{
		{"true", 0, true},
		{":", 0, true},
		{"false", 1, true},
		{"  true  \n", 0, true},
		{"# comment\nfalse # trailing\n", 1, true},
		{"! true", 0, false},
		{"true &", 0, false},
		{"true > out", 0, false},
		{"true 2>&1", 0, false},
		{"X=1 true", 0, false},
		{"true x", 0, false},
		{"true; true", 0, false},
		{"true && false", 0, false},
		{"true | true", 0, false},
		{"(true)", 0, false},
		{"{ true; }", 0, false},
		{"'true'", 0, false},
		{"\\true", 0, false},
		{"$x", 0, false},
		{"tru", 0, false},
		{"True", 0, false},
		{"exit", 0, false},
		{"", 0, false},
		{"true (", 0, false},
	} {
		status, ok := NoOpStatus(tc.text)
		if ok != tc.ok || (ok && status != tc.status) {
			t.Errorf("NoOpStatus(%q) = %d, %v; want %d, %v", tc.text, status, ok, tc.status, tc.ok)
		}
	}
}
