package main

import (
	"testing"
	"time"
)

// TestParseWhen: --since and --until take days and weeks, today and
// yesterday, besides RFC 3339, dates and Go durations (a team lead's
// "what did the agent run yesterday" needed 24h or a date).
func TestParseWhen(t *testing.T) {
	now := time.Now()
	midnight := now.UTC().Truncate(24 * time.Hour)
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"1d", now.Add(-24 * time.Hour)},
		{"2w", now.Add(-14 * 24 * time.Hour)},
		{"1d12h", now.Add(-36 * time.Hour)},
		{"90m", now.Add(-90 * time.Minute)},
		{"today", midnight},
		{"yesterday", midnight.Add(-24 * time.Hour)},
		{"2026-11-29", time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)},
	} {
		got, err := parseWhen(tc.in)
		if err != nil || got.Sub(tc.want).Abs() > time.Minute {
			t.Errorf("parseWhen(%q) = %v, %v; want about %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"d", "1x", "-1d", "1d-2h", "last week"} {
		if _, err := parseWhen(bad); err == nil {
			t.Errorf("parseWhen(%q): want an error", bad)
		}
	}
}
