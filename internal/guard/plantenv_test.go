package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// plantFixture is a home with a workspace (proj, a repository) and a
// directory no jail writes (outside), a temp directory of its own, and a
// guard in mode auto with sandbox: workspace whose jails are recorded in
// the home's state directory.
type plantFixture struct {
	home, ws, outside, tmp, record string
	policy                         *rules.Policy
}

func newPlantFixture(t *testing.T) plantFixture {
	t.Helper()
	root := t.TempDir()
	f := plantFixture{home: filepath.Join(root, "home"), tmp: filepath.Join(root, "tmp")}
	f.ws, f.outside = filepath.Join(f.home, "proj"), filepath.Join(f.home, "outside")
	f.record = JailRecordFile(filepath.Join(f.home, ".local", "state", "guardsh", "jails"))
	for _, d := range []string{filepath.Join(f.ws, ".git"), f.outside, f.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p, err := rules.Parse([]byte("mode: auto\nsandbox: workspace\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f.policy = p
	// The variables under test start unset, whatever the test process
	// inherited (HOME stays: it lies outside every fixture).
	for _, v := range plantVars {
		if v.name != "HOME" {
			t.Setenv(v.name, "")
		}
	}
	t.Setenv("PATH", "/usr/bin:/bin")
	return f
}

// guard returns the fixture's guard working in cwd: in the workspace
// when cwd lies in it (in a repository nested there, that one is the
// workspace, as guardsh finds it), else with no workspace (as from the
// home).
func (f plantFixture) guard(cwd string) *Guard {
	ws := ""
	for d := cwd; strings.HasPrefix(d, f.ws); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			ws = d
			break
		}
	}
	return &Guard{Policy: f.policy, PolicyFile: "c.yaml", JailRecord: f.record,
		Context:  rules.Context{Mode: rules.Auto, Cwd: cwd, Home: f.home, Workspace: ws, TempDirs: []string{f.tmp}},
		Analysis: interp.Options{Home: f.home, Dir: cwd}}
}

// TestPlantedVariables: while an inherited variable that makes a program
// load code or config leads into the workspace (or a temp directory),
// every program the rules allow by its class runs jailed, the reason
// naming the variable; leading elsewhere, it runs as before. One case
// per kind of variable (attack-run finds: LD_LIBRARY_PATH with a planted
// libselinux, PYTHONPATH with sitecustomize.py, DOCKER_CONFIG with a CLI
// plugin, KUBECONFIG with an exec credential plugin).
func TestPlantedVariables(t *testing.T) {
	f := newPlantFixture(t)
	in := func(p string) string { return filepath.Join(f.ws, p) }
	out := func(p string) string { return filepath.Join(f.outside, p) }
	for _, c := range []struct{ name, planted, clean string }{
		{"LD_LIBRARY_PATH", "/usr/local/cuda/lib64:" + in("build/lib"), "/usr/local/cuda/lib64:" + out("lib")},
		{"LD_LIBRARY_PATH", "/usr/local/cuda/lib64:", "/usr/local/cuda/lib64"}, // an empty entry is the current directory
		{"LD_PRELOAD", "libfoo.so " + in("x.so"), "libfoo.so " + out("x.so")},
		{"LD_AUDIT", in("a.so"), out("a.so")},
		{"PYTHONPATH", in("src"), out("src")},
		{"PYTHONPATH", "src", out("src")}, // relative: beneath the current directory
		{"PYTHONUSERBASE", in(".local"), out(".local")},
		{"NODE_PATH", in("node_modules"), out("node_modules")},
		{"NODE_OPTIONS", "--max-old-space-size=4096 --require " + in("hook.js"), "--max-old-space-size=4096 --require " + out("hook.js")},
		{"NODE_OPTIONS", "-r ts-node/register", "--max-old-space-size=4096"}, // node resolves it from ./node_modules
		{"PERL5LIB", in("lib"), out("lib")},
		{"PERL5OPT", "-I" + in("lib") + " -Mstrict", "-Mstrict"},
		{"RUBYLIB", in("lib"), out("lib")},
		{"RUBYOPT", "-r./boot", "-rbundler/setup"}, // a bare library is looked up on the load path
		{"GIT_CONFIG_GLOBAL", in("gitconfig"), out("gitconfig")},
		{"GIT_TEMPLATE_DIR", in("tpl"), out("tpl")},
		{"GIT_EXEC_PATH", in("libexec"), out("libexec")},
		{"GIT_EXTERNAL_DIFF", in("differ"), "difftool"}, // a bare name is found on PATH
		{"LESSOPEN", "|" + in("pre.sh") + " %s", "|lesspipe %s"},
		{"PAGER", in("pager") + " -R", "less -R"},
		{"PAGER", "bin/pager -R", "less -R"},                           // a relative program
		{"GIT_EXTERNAL_DIFF", "sh " + in("d.sh"), "sh " + out("d.sh")}, // an argument names the code run
		{"DOCKER_CONFIG", in(".docker"), out(".docker")},
		{"KUBECONFIG", out("a") + ":" + in("kubeconfig"), out("a") + ":" + out("b")},
		{"GNUPGHOME", in(".gnupg"), out(".gnupg")},
		{"XDG_CONFIG_HOME", in(".config"), out(".config")},
		{"XDG_DATA_DIRS", "/usr/share:" + in("share"), "/usr/share"},
		{"HOME", f.ws, f.outside},
		{"GOFLAGS", "-toolexec=" + in("tx"), "-race -toolexec=mytool"},
		{"npm_config_userconfig", in(".npmrc"), out(".npmrc")},
		{"NPM_CONFIG_SCRIPT_SHELL", "./sh", "true"},
		{"XDG_CONFIG_HOME", filepath.Join(f.tmp, "cfg"), out(".config")}, // a temp directory
		{"JAVA_TOOL_OPTIONS", "-Xmx1g -javaagent:" + in("agent.jar") + "=debug", "-Xmx1g -javaagent:" + out("agent.jar")},
		{"JAVA_TOOL_OPTIONS", "-agentpath:" + in("lib.so"), "-agentlib:jdwp=transport=dt_socket"},
		{"JDK_JAVA_OPTIONS", "@args.txt", "-Dfile.encoding=UTF-8"}, // a relative argument file
		{"_JAVA_OPTIONS", "-Xbootclasspath/a:" + out("a.jar") + ":" + in("b.jar"), "-Xbootclasspath/a:" + out("a.jar")},
		{"MAVEN_OPTS", "-cp " + in("classes"), "-cp " + out("classes")},
		{"GRADLE_OPTS", "-Djava.library.path=" + in("native"), "-Djava.library.path=" + out("native")},
		{"CLASSPATH", out("a.jar") + ":" + in("b.jar"), out("a.jar")},
		{"GRADLE_USER_HOME", in(".gradle"), out(".gradle")},
		{"LUA_PATH", in("lua") + "/?.lua;;", out("lua") + "/?.lua;;"},
		{"LUA_CPATH_5_4", "./?.so", out("lib") + "/?.so"},
		{"LUA_INIT", "@" + in("init.lua"), "print('hello')"}, // code, not a file
		{"R_PROFILE_USER", in(".Rprofile"), out(".Rprofile")},
		{"JULIA_DEPOT_PATH", in(".julia"), out(".julia")},
		{"IPYTHONDIR", in(".ipython"), out(".ipython")},
		{"GOMODCACHE", in("mod"), out("mod")},
		{"GOROOT", in("go"), out("go")},
		{"CC", in("bin/cc") + " -m64", "gcc -m64"},
		{"MAKEFILES", in("extra.mk"), out("extra.mk")},
		{"ZDOTDIR", in("zsh"), out("zsh")},
	} {
		t.Run(c.name+"="+c.planted, func(t *testing.T) {
			t.Setenv(c.name, c.planted)
			o := f.guard(f.ws).Evaluate("ls")
			if o.Decision != rules.Allow || !o.Sandbox || !strings.Contains(o.Segments[0].Verdict.Reason, "runs inside the sandbox: "+c.name+" holds ") {
				t.Errorf("%s=%s: decision %s, sandbox %v, reason %q; want it jailed, naming %s", c.name, c.planted, o.Decision, o.Sandbox, o.Segments[0].Verdict.Reason, c.name)
			}
			t.Setenv(c.name, c.clean)
			if o := f.guard(f.ws).Evaluate("ls"); o.Decision != rules.Allow || o.Sandbox {
				t.Errorf("%s=%s: decision %s, sandbox %v (%s); want it run unjailed", c.name, c.clean, o.Decision, o.Sandbox, o.Segments[0].Verdict.Reason)
			}
		})
	}
}

// TestPlantedGitConfigEnvironment: git configuration given in the
// environment (GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n,
// and GIT_CONFIG_PARAMETERS, which `git -c` hands on) naming a program or
// an included file where a jail writes makes class-allowed programs run
// jailed; values elsewhere, or counted out, leave them unjailed.
func TestPlantedGitConfigEnvironment(t *testing.T) {
	f := newPlantFixture(t)
	in := func(p string) string { return filepath.Join(f.ws, p) }
	out := func(p string) string { return filepath.Join(f.outside, p) }
	for _, c := range []struct {
		name    string
		env     map[string]string
		planted bool
	}{
		{"fsmonitor", map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.fsmonitor", "GIT_CONFIG_VALUE_0": in("mon")}, true},
		{"script argument", map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.fsmonitor", "GIT_CONFIG_VALUE_0": "sh " + in("mon.sh")}, true},
		{"second entry", map[string]string{"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_0": "user.name", "GIT_CONFIG_VALUE_0": "Jane Doe",
			"GIT_CONFIG_KEY_1": "include.path", "GIT_CONFIG_VALUE_1": in("inc")}, true},
		{"relative", map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.pager", "GIT_CONFIG_VALUE_0": "./pager -R"}, true},
		{"alias", map[string]string{"GIT_CONFIG_PARAMETERS": "'alias.st'='!" + in("st.sh") + " --short'"}, true},
		{"old form", map[string]string{"GIT_CONFIG_PARAMETERS": "'user.name=x' 'core.hooksPath=" + in("hooks") + "'"}, true},
		{"home", map[string]string{"GIT_CONFIG_PARAMETERS": "'include.path'='~/proj/gitinc'"}, true},
		{"counted out", map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "user.name", "GIT_CONFIG_VALUE_0": "x",
			"GIT_CONFIG_KEY_1": "core.fsmonitor", "GIT_CONFIG_VALUE_1": in("mon")}, false},
		{"elsewhere", map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.fsmonitor", "GIT_CONFIG_VALUE_0": out("mon")}, false},
		{"no paths", map[string]string{"GIT_CONFIG_PARAMETERS": "'color.ui'='always' 'user.email'='a@b.c'"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, v := range []string{"GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0", "GIT_CONFIG_KEY_1", "GIT_CONFIG_VALUE_1"} {
				t.Setenv(v, c.env[v])
				if _, ok := c.env[v]; !ok {
					os.Unsetenv(v)
				}
			}
			o := f.guard(f.ws).Evaluate("ls")
			jailed := o.Decision == rules.Allow && o.Sandbox && strings.Contains(o.Segments[0].Verdict.Reason, "git configuration in the environment")
			if jailed != c.planted || o.Decision != rules.Allow {
				t.Errorf("%v: decision %s, sandbox %v, reason %q; want jailed=%v", c.env, o.Decision, o.Sandbox, o.Segments[0].Verdict.Reason, c.planted)
			}
		})
	}
}

// TestPlantedElsewhere: where a jail writes is known beyond the current
// command's workspace — the directories recorded when earlier jails were
// built count from anywhere (an attack run planted in ~/proj and ran it
// from ~, and from a repository nested in ~/proj, unjailed): git in a
// repository there and a program while PATH or another variable leads
// there run jailed. Without the record, from the home, they would not.
func TestPlantedElsewhere(t *testing.T) {
	f := newPlantFixture(t)
	other, sub := filepath.Join(f.ws, "other"), filepath.Join(f.ws, "sub")
	for _, d := range []string{filepath.Join(other, ".git"), filepath.Join(sub, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", filepath.Join(f.ws, ".venv", "bin")+":/usr/bin:/bin")
	for _, c := range []struct{ cwd, cmd, why string }{
		{f.home, "cd proj/other && git status --short", "the repository " + other + " lies where a jailed command writes"},
		{f.home, "ls", "PATH holds " + filepath.Join(f.ws, ".venv", "bin")},
		{sub, "ls", "PATH holds " + filepath.Join(f.ws, ".venv", "bin")},
	} {
		// Not recorded yet: from the home no jail is known to have
		// written the workspace; from sub, a workspace of its own, no
		// more than sub.
		o := f.guard(c.cwd).Evaluate(c.cmd)
		if o.Sandbox {
			t.Fatalf("%s in %s: jailed before any jail was recorded (%s)", c.cmd, c.cwd, o.Segments[len(o.Segments)-1].Verdict.Reason)
		}
	}
	// A jailed command in the workspace records its jail's directories.
	if err := f.guard(f.ws).RecordJail(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ cwd, cmd, why string }{
		{f.home, "cd proj/other && git status --short", "the repository " + other + " lies where a jailed command writes"},
		{f.home, "ls", "PATH holds " + filepath.Join(f.ws, ".venv", "bin")},
		{sub, "ls", "PATH holds " + filepath.Join(f.ws, ".venv", "bin")},
	} {
		o := f.guard(c.cwd).Evaluate(c.cmd)
		last := o.Segments[len(o.Segments)-1]
		if o.Decision != rules.Allow || !o.Sandbox || !strings.Contains(last.Verdict.Reason, c.why) {
			t.Errorf("%s in %s: decision %s sandbox %v (%s), want jailed: %s", c.cmd, c.cwd, o.Decision, o.Sandbox, last.Verdict.Reason, c.why)
		}
	}
	// Where no jail can run (an interactive session), they ask instead
	// of running unjailed.
	g := f.guard(f.home)
	g.SandboxUnavailable = "unavailable (interactive session)"
	if o := g.Evaluate("ls"); o.Decision != rules.Ask || o.Sandbox || o.SandboxNote != g.SandboxUnavailable {
		t.Errorf("no jail here: decision %s sandbox %v note %q, want ask", o.Decision, o.Sandbox, o.SandboxNote)
	}
	// A git elsewhere, with nothing leading into the recorded places,
	// runs as before.
	t.Setenv("PATH", "/usr/bin:/bin")
	if o := f.guard(f.home).Evaluate("cd outside && git status"); o.Sandbox || o.Decision != rules.Allow {
		t.Errorf("git in a directory no jail wrote: decision %s sandbox %v", o.Decision, o.Sandbox)
	}
}

// TestPlantedRecordUnreadable: a record of jails' writes that cannot be
// read counts as "any place may have been written": git and every program
// the rules allow by class run jailed, or ask where no jail can run,
// and the reason names the record.
func TestPlantedRecordUnreadable(t *testing.T) {
	f := newPlantFixture(t)
	if err := os.MkdirAll(filepath.Dir(f.record), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.record, []byte("not a path\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"ls", "cd outside && git status"} {
		o := f.guard(f.home).Evaluate(cmd)
		last := o.Segments[len(o.Segments)-1]
		if o.Decision != rules.Allow || !o.Sandbox || !strings.Contains(last.Verdict.Reason, f.record) {
			t.Errorf("%s: decision %s sandbox %v (%s), want jailed, naming the record", cmd, o.Decision, o.Sandbox, last.Verdict.Reason)
		}
		g := f.guard(f.home)
		g.SandboxUnavailable = "unavailable (ABI 3)"
		if o := g.Evaluate(cmd); o.Decision != rules.Ask {
			t.Errorf("%s with no jail: decision %s, want ask", cmd, o.Decision)
		}
	}
	if err := f.guard(f.ws).RecordJail(); err == nil {
		t.Error("a jail recorded into a record that cannot be read")
	}
}

// TestCheckShell: guardsh refuses to start with a real shell that lies
// where a jail may have written, recorded ones included, or that the
// loader's variables would make load code from there (a relative entry
// taken where bash starts), and when the record cannot be read; not with
// the sandbox off.
func TestCheckShell(t *testing.T) {
	f := newPlantFixture(t)
	if err := f.guard(f.ws).RecordJail(); err != nil {
		t.Fatal(err)
	}
	venvBash := filepath.Join(f.ws, ".venv", "bin", "bash")
	for _, c := range []struct {
		shell, cwd string
		env        []string
		want       string
	}{
		{"/usr/bin/bash", f.home, nil, ""},
		{venvBash, f.home, nil, "the bash found on PATH, " + venvBash + ", lies where a jailed command writes"},
		{"/usr/bin/bash", f.home, []string{"LD_LIBRARY_PATH=" + filepath.Join(f.ws, "build/lib")}, "LD_LIBRARY_PATH holds " + filepath.Join(f.ws, "build/lib")},
		{"/usr/bin/bash", f.ws, []string{"LD_LIBRARY_PATH=/usr/local/cuda/lib64:"}, "LD_LIBRARY_PATH holds . (relative: " + f.ws + ")"},
		{"/usr/bin/bash", f.home, []string{"LD_LIBRARY_PATH=/usr/local/cuda/lib64:"}, ""}, // bash starts in the home
		{"/usr/bin/bash", f.home, []string{"LD_PRELOAD=" + filepath.Join(f.tmp, "x.so")}, "LD_PRELOAD holds"},
		{"/usr/bin/bash", f.home, []string{"PYTHONPATH=" + f.ws}, ""}, // bash loads no python
	} {
		err := f.guard(c.cwd).CheckShell(c.shell, c.cwd, c.env, "c.yaml")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %v in %s: %v", c.shell, c.env, c.cwd, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s %v in %s: %v, want %q", c.shell, c.env, c.cwd, err, c.want)
		}
	}
	if err := os.WriteFile(f.record, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := f.guard(f.home).CheckShell("/usr/bin/bash", f.home, nil, "c.yaml"); err == nil || !strings.Contains(err.Error(), f.record) {
		t.Errorf("a record that cannot be read: %v", err)
	}
	off := f.guard(f.home)
	off.Policy = rules.Default()
	if err := off.CheckShell(venvBash, f.home, nil, "c.yaml"); err != nil {
		t.Errorf("sandbox off: %v", err)
	}
}
