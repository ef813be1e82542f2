package entitytest

import (
	"errors"
	"runtime"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

func TestSample(t *testing.T) {
	tests := []struct {
		entity string
		want   string
	}{
		{"user", `{"number":1,"name":"name","details":{"age":1,"mail":"user@example.com"},"code":"unknown"}`},
		{"scalars", `{"s":"s","n":1,"f":1.5,"b":true,"d":"2024-01-15T12:30:00Z","l":[1],"o":{},"x":"x"}`},
		{"defaults", `{"code":"unknown","n":0,"f":0.5,"b":false,"d":"2020-01-01T00:00:00Z","l":[1,2],"o":{"a":1},"x":null,"y":"text","req":"r"}`},
		{"formats", `{"mail":"user@example.com","site":"https://example.com/","day":"2024-01-15","at":"12:30","ts":"2024-01-15T12:30:00Z","long":"useruseruseruserus@example.com","short":"http://a.co/aaa"}`},
		{"sizes", `{"short":"sho","long":"long","between":"be","exact":"exactex","age":1,"neg":-5,"big":1000,"score":0.9,"tags":[1,2],"few":[],"count":10}`},
		{"patterns", `{"code":"AAA-0000","slug":"slug","hex":"#aaaaaa","phone":"100000000000","word":"go aa","either":"yes","lower":"lowe"}`},
		{"chain", `{"n":1,"next":{"n":1,"next":{"n":1,"next":[]}}}`},
		{"ping", `{"at":"2024-01-15T12:30:00Z","pong":{"at":"2024-01-15T12:30:00Z","ping":{"at":"2024-01-15T12:30:00Z","pong":null}}}`},
		{"custom", `{"n":0,"s":"SSSS","m":4}`},
		{"keys", `{"a.b":"a.b","x y":1,"é":"éé","#":true}`},
		{"empty", `{}`},
		{"undeclared", `{"ghost":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.entity, func(t *testing.T) {
			if got := Sample(corpus.Lookup(tt.entity)); string(got) != tt.want {
				t.Errorf("Sample:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
	if got := Sample(nil); string(got) != "null" {
		t.Errorf("Sample(nil) = %s", got)
	}
}

// TestSampleUnsatisfiable: a rule no candidate passes gives null where the
// field may be null, and the first candidate (which Conform reports) where
// it may not.
func TestSampleUnsatisfiable(t *testing.T) {
	r := entity.NewRegistry()
	r.RegisterRule(rules.Def{Name: "never", Compile: func([]string, rules.Kind) (rules.Checker, error) {
		return rules.CheckFunc(func(rules.Value) error { return errors.New("never passes") }), nil
	}})
	e := r.MustExpose("x",
		"opt", "string", "never",
		"must", "string", "req | never",
	)
	got := Sample(e)
	if want := `{"opt":null,"must":"must"}`; string(got) != want {
		t.Errorf("Sample = %s, want %s", got, want)
	}
	tb := &fakeTB{}
	ok := Conform(tb, e, got)
	checkReport(t, tb, ok, []string{`must: want string matching never, got "must": never passes (never)`})
}

// TestSampleNestedRepeats checks that Sample of a regex whose repetitions
// nest (once 3.4 GB) stays small and gives a value Conform accepts.
func TestSampleNestedRepeats(t *testing.T) {
	e := entity.NewRegistry().MustExpose("x", "s", "string", "req | regex '(((((((((a*)*)*)*)*)*)*)*)*)*' | min 5")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := Sample(e)
	runtime.ReadMemStats(&after)
	if a := after.TotalAlloc - before.TotalAlloc; a > 8<<20 {
		t.Errorf("Sample allocated %d bytes, want at most 8 MiB", a)
	}
	tb := &fakeTB{}
	checkReport(t, tb, Conform(tb, e, got), nil)
}
