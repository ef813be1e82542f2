package entity

import (
	"errors"
	"testing"
)

// TestServerErrorsOption: the registry keeps the ServerErrors function for
// the calls that log server errors; nil takes it away.
func TestServerErrorsOption(t *testing.T) {
	var got []string
	log := func(id string, err error) { got = append(got, id+": "+err.Error()) }
	reg := NewRegistry(ServerErrors(log))
	f := reg.serverErrors()
	if f == nil {
		t.Fatal("no function kept")
	}
	f("id1", errors.New("boom"))
	if len(got) != 1 || got[0] != "id1: boom" {
		t.Errorf("got %q", got)
	}
	if err := reg.Configure(Limits{}); err != nil || reg.serverErrors() == nil {
		t.Errorf("another option took it away: %v", err)
	}
	if err := reg.Configure(ServerErrors(nil)); err != nil || reg.serverErrors() != nil {
		t.Errorf("ServerErrors(nil) kept it: %v", err)
	}
	if (*Registry)(nil).serverErrors() != nil {
		t.Error("a nil registry has one")
	}
}
