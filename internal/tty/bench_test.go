package tty

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// BenchmarkRelayVersusDirect runs `bash -c 'seq 200000'` (1.3 MB of
// output) alternately with its output straight on a terminal (a pty the
// benchmark reads), on a pty of its own relayed to that terminal, and
// relayed and recorded; it reports the medians and the ratios relay/direct
// and recorded/direct: what the pty costs a command that prints a lot.
func BenchmarkRelayVersusDirect(b *testing.B) {
	o := newOuter(b, 24, 80)
	dir := b.TempDir()
	const script = "seq 200000"
	direct := func() time.Duration {
		cmd := exec.Command("bash", "-c", script)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = o.slave, o.slave, o.slave
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	relayed := func(i int, record bool) time.Duration {
		start := time.Now()
		t := &Terminal{In: o.slave, Out: o.slave}
		if record {
			rec, err := Create(filepath.Join(dir, strconv.Itoa(i)+".cast"), Header{Width: 80, Height: 24}, 0, false)
			if err != nil {
				b.Fatal(err)
			}
			defer rec.Close()
			t.Rec = rec
		}
		cmd := exec.Command("bash", "-c", script)
		finish, err := t.Start(cmd, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			b.Fatal(err)
		}
		if err := finish(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var d, r, rr []time.Duration
	b.ResetTimer()
	for i := range b.N {
		d = append(d, direct())
		r = append(r, relayed(i, false))
		rr = append(rr, relayed(i, true))
	}
	b.StopTimer()
	md, mr, mrr := median(d), median(r), median(rr)
	b.ReportMetric(float64(md.Microseconds()), "direct-µs")
	b.ReportMetric(float64(mr.Microseconds()), "relay-µs")
	b.ReportMetric(float64(mrr.Microseconds()), "recorded-µs")
	b.ReportMetric(float64(mr)/float64(md), "relay-ratio")
	b.ReportMetric(float64(mrr)/float64(md), "recorded-ratio")
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
