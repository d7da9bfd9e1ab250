package interp

import "testing"

// Each wrapper of the table runs the command in its arguments: the command
// is a segment of its own after the wrapper's, so deny rules see it.
func TestAnalyzeWrapperTable(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"env -S is split like env does", `env -S 'rm -rf /'`,
			[]string{`exec env -S "rm -rf /"`, "exec rm -rf / via env"}},
		{"env -S words are options and assignments again", `env -S"-i A=1 rm -rf /"`,
			[]string{`exec env "-S-i A=1 rm -rf /"`, "exec {A=1} rm -rf / via env"}},
		{"env -S ${NAME} is a run-time word", `env -S 'rm ${HOME}'`,
			[]string{`exec env -S "rm ${HOME}"`, `exec rm "\x00" via env`}},
		{"env -C takes a directory", "env -C /tmp rm -rf /",
			[]string{"exec env -C /tmp rm -rf /", "exec rm -rf / via env"}},
		{"su -c is shell code", "su -c 'rm -rf /' root",
			[]string{`exec su -c "rm -rf /" root`, "exec rm -rf / via su -c"}},
		{"su USER -c goes to the user's shell", "su - root -c 'rm -rf /; id'",
			[]string{`exec su - root -c "rm -rf /; id"`, "exec rm -rf / via su -c", "exec id via su -c"}},
		{"runuser -u runs a command", "runuser -u nobody -- rm -rf /",
			[]string{"exec runuser -u nobody -- rm -rf /", "exec rm -rf / via runuser"}},
		{"runuser -c is shell code", "runuser -l nobody -c 'rm -rf /'",
			[]string{`exec runuser -l nobody -c "rm -rf /"`, "exec rm -rf / via runuser -c"}},
		{"ionice runs its command", "ionice -c2 -n7 rm -rf /",
			[]string{"exec ionice -c2 -n7 rm -rf /", "exec rm -rf / via ionice"}},
		{"ionice -p runs nothing", "ionice -p 1", []string{"exec ionice -p 1"}},
		{"chroot skips NEWROOT", "chroot --userspec=a:b /srv rm -rf /",
			[]string{"exec chroot --userspec=a:b /srv rm -rf /", "exec rm -rf / via chroot"}},
		{"flock skips FILE", "flock -n /tmp/l rm -rf /",
			[]string{"exec flock -n /tmp/l rm -rf /", "exec rm -rf / via flock"}},
		{"flock FILE -c is shell code", "flock -w 5 /tmp/l -c 'rm -rf /'",
			[]string{`exec flock -w 5 /tmp/l -c "rm -rf /"`, "exec rm -rf / via flock -c"}},
		{"flock FD runs nothing", "flock 9", []string{"exec flock 9"}},
		{"watch joins its words for sh -c", "watch -n1 'ls;' rm -rf /",
			[]string{`exec watch -n1 "ls;" rm -rf /`, "exec ls via watch", "exec rm -rf / via watch"}},
		{"watch -x runs its words", "watch -x rm -rf /",
			[]string{"exec watch -x rm -rf /", "exec rm -rf / via watch"}},
		{"parallel inputs are run-time words", "parallel 'rm -rf {}' ::: /",
			[]string{`exec parallel "rm -rf {}" ::: /`, `exec rm -rf "\x00" via parallel`}},
		{"parallel appends its inputs", "parallel -j4 rm -rf ::: /",
			[]string{"exec parallel -j4 rm -rf ::: /", `exec rm -rf "\x00" via parallel`}},
		{"nsenter runs its command", "nsenter -t 1 -m -u rm -rf /",
			[]string{"exec nsenter -t 1 -m -u rm -rf /", "exec rm -rf / via nsenter"}},
		{"unshare runs its command", "unshare -r --mount-proc rm -rf /",
			[]string{"exec unshare -r --mount-proc rm -rf /", "exec rm -rf / via unshare"}},
		{"strace options take arguments", "strace -f -e trace=execve -o /tmp/t -s 99 rm -rf /",
			[]string{"exec strace -f -e trace=execve -o /tmp/t -s 99 rm -rf /", "exec rm -rf / via strace"}},
		{"strace -o |CMD is shell code", "strace -o '|rm -rf /' ls",
			[]string{`exec strace -o "|rm -rf /" ls`, "exec rm -rf / via strace -o", "exec ls via strace"}},
		{"strace -E sets the command's environment", "strace -E LD_PRELOAD=/x.so ls",
			[]string{"exec strace -E LD_PRELOAD=/x.so ls", "exec {LD_PRELOAD=/x.so} ls via strace"}},
		{"ltrace runs its command", "ltrace -e malloc rm -rf /",
			[]string{"exec ltrace -e malloc rm -rf /", "exec rm -rf / via ltrace"}},
		{"busybox runs its applet", "busybox rm -rf /",
			[]string{"exec busybox rm -rf /", "exec rm -rf / via busybox"}},
		{"setpriv runs its command", "setpriv --reuid=1000 --clear-groups rm -rf /",
			[]string{"exec setpriv --reuid=1000 --clear-groups rm -rf /", "exec rm -rf / via setpriv"}},
		{"taskset skips the mask", "taskset 0x3 rm -rf /; taskset -c 0,1 rm x",
			[]string{"exec taskset 0x3 rm -rf /", "exec rm -rf / via taskset", "exec taskset -c 0,1 rm x", "exec rm x via taskset"}},
		{"taskset -p runs nothing", "taskset -p 3 1", []string{"exec taskset -p 3 1"}},
		{"script -c is shell code, options permuted", "script out.log -q -c 'rm -rf /'",
			[]string{`exec script out.log -q -c "rm -rf /"`, "exec rm -rf / via script -c"}},
		{"ssh's remote command is shell code", "ssh -p 22 host -t 'cd /; rm -rf /'",
			[]string{`exec ssh -p 22 host -t "cd /; rm -rf /"`, "exec cd / via ssh (remote)", "exec rm -rf / via ssh (remote)"}},
		{"ssh -o ProxyCommand is local shell code", "ssh -o ProxyCommand='nc %h %p' host",
			[]string{`exec ssh -o "ProxyCommand=nc %h %p" host`, "exec nc %h %p via ssh -o ProxyCommand"}},
		{"ssh -N runs no command", "ssh -N -L 80:x:80 host", []string{"exec ssh -N -L 80:x:80 host"}},
		{"docker exec runs in the container", "docker exec -it -u 0 c rm -rf /",
			[]string{"exec docker exec -it -u 0 c rm -rf /", "exec rm -rf / via docker exec"}},
		{"docker run skips its options and IMAGE", "docker run --rm -v /:/h -e A=1 img rm -rf /",
			[]string{"exec docker run --rm -v /:/h -e A=1 img rm -rf /", "exec rm -rf / via docker run"}},
		{"docker run --entrypoint is the program", "docker run --entrypoint sh img -c 'rm -rf /'",
			[]string{`exec docker run --entrypoint sh img -c "rm -rf /"`, `exec sh -c "rm -rf /" via docker run`, "exec rm -rf / via docker run,sh -c"}},
		{"podman container exec", "podman -H x container exec c rm -rf /",
			[]string{"exec podman -H x container exec c rm -rf /", "exec rm -rf / via podman exec"}},
		{"kubectl exec runs what follows --", "kubectl exec -it pod -n ns -- rm -rf /",
			[]string{"exec kubectl exec -it pod -n ns -- rm -rf /", "exec rm -rf / via kubectl exec"}},
		{"tmux new-session runs a shell command", "tmux new-session -d -s x 'rm -rf /'",
			[]string{`exec tmux new-session -d -s x "rm -rf /"`, "exec rm -rf / via tmux new-session"}},
		{"tmux send-keys text is shell code", "tmux send-keys -t x 'rm -rf /' Enter",
			[]string{`exec tmux send-keys -t x "rm -rf /" Enter`, "exec rm -rf / via tmux send-keys"}},
		{"sudo -s escapes its words for the shell", "sudo -s rm -rf '/;x'",
			[]string{`exec sudo -s rm -rf "/;x"`, `exec rm -rf "/;x" via sudo -s`}},
		{"sudo -s keeps $ unescaped", "sudo -i echo '$(id)x'",
			[]string{`exec sudo -i echo "$(id)x"`, `exec echo "$(id)x" via sudo -s`}},
		{"sudo NAME=value become Assigns", "sudo -u root FOO=1 rm -rf /",
			[]string{"exec sudo -u root FOO=1 rm -rf /", "exec {FOO=1} rm -rf / via sudo"}},
		{"sudo -k still runs its command", "sudo -k rm -rf /",
			[]string{"exec sudo -k rm -rf /", "exec rm -rf / via sudo"}},
		{"nice -N and timeout flags", "nice -10 timeout --foreground 5 rm -rf /",
			[]string{"exec nice -10 timeout --foreground 5 rm -rf /", "exec timeout --foreground 5 rm -rf / via nice", "exec rm -rf / via nice,timeout"}},
		{"an abbreviated long option is read as getopt does", "timeout --sig=KILL 5 rm x",
			[]string{"exec timeout --sig=KILL 5 rm x", "exec rm x via timeout"}},
	})
}

// Programs that are not wrappers but run a command given in an option:
// the command is analysed as shell code.
func TestAnalyzeExecOptions(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"git ! alias runs through sh", "git -c alias.x='!rm -rf /' x",
			[]string{`exec git -c "alias.x=!rm -rf /" x`, "exec rm -rf / via git alias x"}},
		{"git ! alias gets its arguments", "git -c alias.x='!rm -rf' x /",
			[]string{`exec git -c "alias.x=!rm -rf" x /`, `exec rm -rf "\x00" via git alias x`}},
		{"git alias names are case-insensitive", "git -c alias.X='!rm -rf /' x",
			[]string{`exec git -c "alias.X=!rm -rf /" x`, "exec rm -rf / via git alias x"}},
		{"a git alias without ! is a git command", "git -c alias.st=status st -s",
			[]string{"exec git -c alias.st=status st -s", "exec git status -s via git alias st"}},
		{"git keeps its other global options", "git -C sub -c alias.x='log -1' x",
			[]string{`exec git -C sub -c "alias.x=log -1" x`, "exec git -C sub log -1 via git alias x"}},
		{"a git alias may name another alias", "git -c alias.rh=foo -c alias.foo='reset --hard' rh",
			[]string{`exec git -c alias.rh=foo -c "alias.foo=reset --hard" rh`, "exec git reset --hard via git alias rh"}},
		{"a git alias naming itself runs nothing (git refuses it)", "git -c alias.a='a -v' a",
			[]string{`exec git -c "alias.a=a -v" a`}},
		{"an unused alias runs nothing", "git -c alias.x='!rm -rf /' status",
			[]string{`exec git -c "alias.x=!rm -rf /" status`}},
		{"git core.pager is shell code", "git -c core.pager='rm -rf /' log",
			[]string{`exec git -c "core.pager=rm -rf /" log`, "exec rm -rf / via git -c core.pager"}},
		{"git core.fsmonitor=true runs no hook", "git -c core.fsmonitor=true status",
			[]string{"exec git -c core.fsmonitor=true status"}},
		{"tar --checkpoint-action=exec", "tar --checkpoint=1 --checkpoint-action=exec='rm -rf /' -cf x.tar .",
			[]string{`exec tar --checkpoint=1 "--checkpoint-action=exec=rm -rf /" -cf x.tar .`, "exec rm -rf / via tar --checkpoint-action"}},
		{"tar --to-command abbreviated", "tar --to-com='rm -rf /' -xf x.tar",
			[]string{`exec tar "--to-com=rm -rf /" -xf x.tar`, "exec rm -rf / via tar --to-command"}},
		{"tar -I", "tar -I 'rm -rf /' -cf x.tar .",
			[]string{`exec tar -I "rm -rf /" -cf x.tar .`, "exec rm -rf / via tar --use-compress-program"}},
		{"sort --compress-program", "sort --compress-program=gzip f",
			[]string{"exec sort --compress-program=gzip f", "exec gzip via sort --compress-program"}},
		{"man -P", "man -P 'rm -rf /' ls", []string{`exec man -P "rm -rf /" ls`, "exec rm -rf / via man --pager"}},
		{"rsync -e", "rsync -e 'ssh -p 22' a b:c", []string{`exec rsync -e "ssh -p 22" a b:c`, "exec ssh -p 22 via rsync --rsh"}},
		{"find -fprintf writes its file", "find . -fprintf out.txt '%p' -fls /dev/null",
			[]string{"exec find . -fprintf out.txt %p -fls /dev/null", "write out.txt"}},
		{"zip -TT", "zip -T -TT 'rm -rf /' x.zip f",
			[]string{`exec zip -T -TT "rm -rf /" x.zip f`, "exec rm -rf / via zip --unzip-command"}},
	})
}

// A wrapper whose options or operands are only known at run time, or not
// in its table, is not unwrapped and gets RunsCode (it may run anything);
// a wrapper fully understood does not.
func TestWrapperFailsClosed(t *testing.T) {
	cases := []struct {
		src      string
		runsCode bool
		segs     int
	}{
		{"sudo --bogus rm -rf /", true, 1},
		{"sudo $opt rm x", true, 1},
		{"nohup $cmd", true, 1},
		{`timeout "$t" rm x`, true, 1},
		{"env -S \"$x\"", true, 1},
		{"env -S 'rm \\q'", true, 1},
		{"kubectl exec pod rm -rf /", true, 1},
		{"git -c core.hooksPath=/tmp/h commit", true, 1},
		{"git --config-env=core.pager=X log", true, 1},
		{"su root", true, 1},
		{"ssh host", true, 1},
		{"sudo -s", true, 1},
		{"tmux send-keys -t x C-c", true, 1},
		{"parallel echo ::: a", true, 2},
		{"git -c alias.x='!echo' $sub", true, 1},
		{"docker run --rm=false img ls", true, 1},
		{"sudo -u root ls", false, 2},
		{"ssh -N host", false, 1},
		{"ssh host ls", false, 2},
		{"timeout 5 ls", false, 2},
		{"su -c ls root", false, 2},
		{"ssh host <<'EOF'\nls\nEOF", false, 2},
		{"git -c color.ui=always log", false, 1},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			segs, err := Analyze(c.src, home)
			if err != nil {
				t.Fatal(err)
			}
			if segs[0].RunsCode != c.runsCode || len(segs) != c.segs {
				t.Errorf("RunsCode = %v with %d segments, want %v with %d: %q",
					segs[0].RunsCode, len(segs), c.runsCode, c.segs, renderAll(segs))
			}
		})
	}
}

func TestSplitEnvString(t *testing.T) {
	cases := []struct {
		in   string
		want []string
		ok   bool
	}{
		{`rm -rf /`, []string{"rm", "-rf", "/"}, true},
		{`a  'b c' "d\te"`, []string{"a", "b c", "d\te"}, true},
		{`a\_b`, []string{"a", "b"}, true},
		{`"a\_b"`, []string{"a b"}, true},
		{`a #comment`, []string{"a"}, true},
		{`a\cb c`, []string{"a"}, true},
		{`${X}y`, []string{Hole + "y"}, true},
		{`$X`, nil, false},
		{`'open`, nil, false},
		{`a\q`, nil, false},
	}
	for _, c := range cases {
		got, ok := splitEnvString(c.in)
		if ok != c.ok || (ok && !equalStrings(got, c.want)) {
			t.Errorf("splitEnvString(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// An alias loop through several aliases runs nothing: git refuses it.
func TestGitAliasLoopRunsNothing(t *testing.T) {
	segs, err := Analyze("git -c alias.a=b -c alias.b=a a", home)
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) != 1 || segs[0].RunsCode {
		t.Errorf("got %q, RunsCode %v", renderAll(segs), segs[0].RunsCode)
	}
}
