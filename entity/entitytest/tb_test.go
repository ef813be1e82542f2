package entitytest

import (
	"fmt"
	"strings"
	"testing"
)

// fakeTB records what a checker reports, so that the kit's own tests can
// see its messages. Methods the kit must not call panic (the embedded
// interface is nil).
type fakeTB struct {
	testing.TB
	errors  []string
	fatals  []string
	logs    []string
	helpers int
}

func (f *fakeTB) Helper() { f.helpers++ }

func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatals = append(f.fatals, fmt.Sprintf(format, args...))
}

func (f *fakeTB) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}

// checkReport compares what a checker reported with the messages wanted
// and its result with their absence: it must return true exactly when it
// printed nothing, mark itself a helper and never call Fatalf.
func checkReport(t *testing.T, tb *fakeTB, ok bool, want []string) {
	t.Helper()
	if ok != (len(tb.errors) == 0) {
		t.Errorf("returned %v after %d errors", ok, len(tb.errors))
	}
	if tb.helpers == 0 {
		t.Errorf("never called t.Helper")
	}
	if len(tb.fatals) > 0 {
		t.Errorf("called Fatalf: %q", tb.fatals)
	}
	if strings.Join(tb.errors, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages:\n got %s\nwant %s", quoteLines(tb.errors), quoteLines(want))
	}
}

func quoteLines(ss []string) string {
	if len(ss) == 0 {
		return "(none)"
	}
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, "\n     ")
}
