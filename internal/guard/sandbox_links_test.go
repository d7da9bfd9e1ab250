package guard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/guardsh/guardsh/internal/workspace"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// TestProtectedLinksKept: the protected paths outside the workspace that
// lead into it through symbolic links are kept and put back with the
// workspace's own (KeepPaths), the links on the way included; one that
// leads into a temp directory keeps every command from running jailed.
func TestProtectedLinksKept(t *testing.T) {
	policy, err := rules.Parse([]byte("sandbox: workspace\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		// links are made from home-relative names (or absolute ones) to
		// targets ("WS/…", "TMP/…" or relative); dirs and files made first.
		dirs, files []string
		links       [][2]string
		wsIsHome    bool
		keep        []string // paths KeepPaths must hold beyond its own
		outside     string   // what linkedOutside must name, "" for none
	}{
		{name: "nothing linked"},
		{name: "file links, stow-style, through a link in the workspace",
			dirs: []string{"WS/real"}, files: []string{"WS/real/gitconfig", "WS/bashrc"},
			links: [][2]string{{"~/.gitconfig", "WS/gitconfig"}, {"WS/gitconfig", "real/gitconfig"}, {"~/.bashrc", "WS/bashrc"}},
			keep:  []string{"WS/gitconfig", "WS/real/gitconfig", "WS/bashrc"}},
		{name: "a directory on the way links into the workspace, the file missing",
			dirs:  []string{"WS/config"},
			links: [][2]string{{"~/.config", "WS/config"}},
			keep:  []string{"WS/config/git/config", "WS/config/fish/config.fish", "WS/config/fish/conf.d", "WS/config/goose"}},
		{name: "a protected directory links into the workspace",
			dirs: []string{"WS/claude"}, files: []string{"WS/claude/settings.json"},
			links: [][2]string{{"~/.claude", "WS/claude"}},
			keep:  []string{"WS/claude"}},
		{name: "an entry of a protected directory links into the workspace",
			dirs: []string{"~/.ssh"}, files: []string{"WS/ssh_config"},
			links: [][2]string{{"~/.ssh/config", "WS/ssh_config"}},
			keep:  []string{"WS/ssh_config"}},
		{name: "the workspace is the home", wsIsHome: true, files: []string{"~/.bashrc"},
			keep: []string{"~/.bashrc", "~/.gitconfig", "~/.ssh"}},
		{name: "a link loop", links: [][2]string{{"~/.zshrc", "~/.zshrc"}}},
		{name: "a link into a temp directory",
			dirs: []string{"TMP/dots"}, links: [][2]string{{"~/.profile", "TMP/dots/profile"}},
			outside: "~/.profile → TMP/dots/profile"},
		{name: "a link elsewhere is left alone",
			dirs: []string{"OUT"}, files: []string{"OUT/gitconfig"}, links: [][2]string{{"~/.gitconfig", "OUT/gitconfig"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			home := filepath.Join(root, "home")
			ws := filepath.Join(home, "dotfiles")
			if tt.wsIsHome {
				ws = home
			}
			tmp := filepath.Join(root, "tmp")
			at := func(p string) string {
				for _, r := range []struct{ pre, dir string }{{"~/", home}, {"WS/", ws}, {"TMP/", tmp}, {"OUT/", filepath.Join(root, "out")}} {
					if rest, ok := strings.CutPrefix(p, r.pre); ok {
						return filepath.Join(r.dir, rest)
					}
				}
				if p == "OUT" {
					return filepath.Join(root, "out")
				}
				return p
			}
			for _, d := range append([]string{"~/", "WS/", "TMP/"}, tt.dirs...) {
				if err := os.MkdirAll(at(d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range tt.files {
				if err := os.WriteFile(at(f), []byte("x\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, l := range tt.links {
				if err := os.Symlink(at(l[1]), at(l[0])); err != nil {
					t.Fatal(err)
				}
			}
			g := &Guard{Policy: policy, PolicyFile: "c.yaml",
				Context:  rules.Context{Mode: rules.Auto, Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{tmp}},
				Analysis: interp.Options{Home: home, Dir: ws}}
			base := &Guard{Policy: policy, Context: rules.Context{Workspace: ws, Home: ""}}
			ownFiles, ownDirs, _ := base.KeepPaths()
			files, dirs, ok := g.KeepPaths()
			if !ok {
				t.Fatal("no workspace")
			}
			var extra []string
			for _, p := range append(files, dirs...) {
				if !slices.Contains(ownFiles, p) && !slices.Contains(ownDirs, p) {
					extra = append(extra, p)
				}
			}
			for _, k := range tt.keep {
				if !slices.Contains(extra, at(k)) {
					t.Errorf("%s is not kept; kept beyond the workspace's own: %q", at(k), extra)
				}
			}
			if len(tt.keep) == 0 && len(extra) > 0 {
				t.Errorf("kept %q, want nothing beyond the workspace's own", extra)
			}
			why := g.linkedOutside()
			if want := strings.Replace(tt.outside, "TMP/", tmp+"/", 1); tt.outside == "" && why != "" || tt.outside != "" && !strings.Contains(why, want) {
				t.Errorf("linkedOutside = %q, want it to name %q", why, want)
			}
			// What would run jailed asks instead while such a link is there
			// (and in a workspace holding the home, whose secrets no jail
			// could hide, as before).
			o := g.Evaluate("./build.sh")
			if jailed := tt.outside == "" && !tt.wsIsHome; o.Sandbox != jailed || tt.outside != "" && (o.Decision != rules.Ask || !strings.Contains(o.SandboxNote, "where a jailed command writes")) {
				t.Errorf("./build.sh: decision %s, sandbox %v, note %q", o.Decision, o.Sandbox, o.SandboxNote)
			}
		})
	}
}

// TestGlobalIncludesKept: a file the user's ~/.gitconfig includes is
// kept and put back when it lies in the workspace (a dotfiles
// repository), and keeps every command from running jailed when it lies
// in a temp directory, as ~/.gitconfig itself would.
func TestGlobalIncludesKept(t *testing.T) {
	policy, err := rules.Parse([]byte("sandbox: workspace\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	root := t.TempDir()
	home, tmp := filepath.Join(root, "home"), filepath.Join(root, "tmp")
	ws := filepath.Join(home, "dotfiles")
	for _, d := range []string{filepath.Join(ws, "git"), tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	g := &Guard{Policy: policy, PolicyFile: "c.yaml",
		Context:  rules.Context{Mode: rules.Auto, Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{tmp}},
		Analysis: interp.Options{Home: home, Dir: ws}}
	write := func(inc string) {
		if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[include]\n\tpath = "+inc+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		g.GlobalGit = workspace.GlobalReach(home, os.LookupEnv, "")
	}
	write("~/dotfiles/git/local")
	files, _, _ := g.KeepPaths()
	if !slices.Contains(files, filepath.Join(ws, "git", "local")) {
		t.Errorf("KeepPaths files = %q, want the included %s", files, filepath.Join(ws, "git", "local"))
	}
	if why := g.linkedOutside(); why != "" {
		t.Errorf("linkedOutside = %q with the include in the workspace", why)
	}
	if o := g.Evaluate("./build.sh"); !o.Sandbox {
		t.Errorf("./build.sh: decision %s, sandbox %v, note %q; want it jailed", o.Decision, o.Sandbox, o.SandboxNote)
	}
	write(filepath.Join(tmp, "inc"))
	if why := g.linkedOutside(); !strings.Contains(why, tmp+"/inc") {
		t.Errorf("linkedOutside = %q, want it to name %s", why, tmp+"/inc")
	}
	if o := g.Evaluate("./build.sh"); o.Sandbox || o.Decision != rules.Ask {
		t.Errorf("./build.sh with an include in a temp directory: decision %s, sandbox %v; want it to ask", o.Decision, o.Sandbox)
	}
}

// TestProtectedLinksFresh: protectedLinks's answer is kept only for a
// Guard deciding one command of a fresh shell, and for freshFor; in a
// session, for the later commands of a script on stdin (no Options.Env),
// after a command that makes links, once freshFor has passed, and for a
// record taken again (Keep, attack run 54), a link made since is seen.
func TestProtectedLinksFresh(t *testing.T) {
	policy, err := rules.Parse([]byte("sandbox: workspace\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		before func(g *Guard) // before the first answer
		after  func(g *Guard) // after it, before the link is made
		kept   bool
	}{
		{"fresh shell", nil, nil, true},
		{"session", func(g *Guard) { g.Analysis.Session = true }, nil, false},
		{"later command of a script on stdin", func(g *Guard) { g.Analysis.Env = nil }, nil, false},
		{"after a command that makes links", func(g *Guard) { g.LinksMade = true }, nil, false},
		{"freshFor passed", nil, func(g *Guard) { g.linksWhen = g.linksWhen.Add(-freshFor) }, false},
		{"record taken again", nil, func(g *Guard) { g.Keep() }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			home, tmp := filepath.Join(root, "home"), filepath.Join(root, "tmp")
			ws := filepath.Join(home, "ws")
			for _, d := range []string{ws, tmp} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			g := &Guard{Policy: policy, Context: rules.Context{Home: home, Workspace: ws, Cwd: ws, TempDirs: []string{tmp}},
				Analysis: interp.Options{Env: os.LookupEnv}}
			if tt.before != nil {
				tt.before(g)
			}
			start := time.Now()
			if why := g.JailUnavailable(); why != "" {
				t.Fatalf("before the link: %s", why)
			}
			if err := os.Symlink(filepath.Join(tmp, "profile"), filepath.Join(home, ".profile")); err != nil {
				t.Fatal(err)
			}
			if tt.after != nil {
				tt.after(g)
			}
			why := g.JailUnavailable()
			if tt.kept && time.Since(start) > freshFor/2 {
				t.Skip("too slow a machine to tell the answer kept")
			}
			if tt.kept != (why == "") {
				t.Errorf("after ~/.profile → %s/profile: %q, want the answer kept: %v", tmp, why, tt.kept)
			}
			// Another workspace is never answered from the kept one.
			g.Context.Workspace = filepath.Join(home, "other")
			if why := g.JailUnavailable(); why == "" {
				t.Errorf("another workspace: no reason, want the link named")
			}
		})
	}
}
