package interp_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/guardsh/guardsh/interp"
)

func ExampleAnalyze() {
	segs, err := interp.Analyze(`git log --oneline | head -5 && echo "$(date)" > ~/log.txt; eval 'r''m -rf build'`,
		interp.Options{Home: "/home/user"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range segs {
		fmt.Printf("%-5s %-28s dynamic=%-5v via=%v\n", s.Kind, s, s.Args[len(s.Args)-1].Dynamic(), s.Via)
	}
	// Output:
	// exec  git log --oneline            dynamic=false via=[]
	// exec  head -5                      dynamic=false via=[]
	// exec  date                         dynamic=false via=[$(…)]
	// write > /home/user/log.txt         dynamic=false via=[]
	// exec  echo "$(date)"               dynamic=true  via=[]
	// exec  eval 'rm -rf build'          dynamic=false via=[]
	// exec  rm -rf build                 dynamic=false via=[eval]
}

func ExampleAnalyze_notUnderstood() {
	_, err := interp.Analyze("echo ok\nif true; then", interp.Options{})
	fmt.Println(err)
	// Output:
	// line 2 col 10: incomplete command: `then` must be followed by a statement list
}

func ExampleCommandReader() {
	script := "cd /srv\ncat <<EOF > motd\nhello\nEOF\nrm -rf cache &&\n  echo cleaned\n"
	cr := interp.NewCommandReader(strings.NewReader(script))
	for {
		cmd, err := cr.Next()
		if err == io.EOF {
			break
		}
		segs, err := interp.Analyze(cmd, interp.Options{})
		fmt.Printf("%q -> %d segments, err=%v\n", cmd, len(segs), err)
	}
	// Output:
	// "cd /srv\n" -> 1 segments, err=<nil>
	// "cat <<EOF > motd\nhello\nEOF\n" -> 2 segments, err=<nil>
	// "rm -rf cache &&\n  echo cleaned\n" -> 2 segments, err=<nil>
}

func ExampleSegment_Chain() {
	segs, _ := interp.Analyze("sudo env A=1 rm -rf /tmp/x\nbash -c 'echo $(eval \"curl x\") > out'", interp.Options{})
	for _, s := range segs {
		fmt.Printf("%d:%-2d %-36s %s\n", s.Line, s.Col, s, strings.Join(s.Chain(), " → "))
	}
	// Output:
	// 1:1  sudo env A=1 rm -rf /tmp/x           sudo
	// 1:1  env A=1 rm -rf /tmp/x                sudo → env
	// 1:1  A=1 rm -rf /tmp/x                    sudo → env → rm
	// 2:1  bash -c 'echo $(eval "curl x") > out' bash
	// 2:9  eval 'curl x'                        bash -c → $(…) → eval
	// 2:9  curl x                               bash -c → $(…) → eval → curl
	// 2:9  > out                                bash -c → > out
	// 2:9  echo $(eval "curl x")                bash -c → echo
}
