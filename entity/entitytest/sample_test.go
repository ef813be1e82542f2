package entitytest

import (
	"bytes"
	"errors"
	"math"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

func TestSample(t *testing.T) {
	tests := []struct {
		entity string
		want   string
	}{
		{"user", `{"number":42,"name":"sample","details":{"age":42,"mail":"user@example.com"},"code":"unknown"}`},
		{"scalars", `{"s":"sample","n":1,"f":1.5,"b":true,"d":"2024-01-15T12:30:00Z","l":[1],"o":{},"x":"sample"}`},
		{"defaults", `{"code":"unknown","n":0,"f":0.5,"b":false,"d":"2020-01-01T00:00:00Z","l":[1,2],"o":{"a":1},"x":null,"y":"text","req":"r"}`},
		{"formats", `{"mail":"user@example.com","site":"https://example.com/","day":"2024-01-15","at":"12:30","ts":"2024-01-15T12:30:00Z","long":"","short":""}`},
		{"sizes", `{"short":"aaa","long":"a","between":"aa","exact":"aaaaaaa","age":0,"neg":-5,"big":1000,"score":0.5,"tags":[1,2],"few":[],"count":10}`},
		{"patterns", `{"code":"AAA-0000","slug":"a-a","hex":"#aaaaaa","phone":"","word":"","either":"yes","lower":"aaaa"}`},
		{"chain", `{"n":1,"next":{"n":1,"next":{"n":1,"next":[]}}}`},
		{"ping", `{"at":"2024-01-15T12:30:00Z","pong":{"at":"2024-01-15T12:30:00Z","ping":{"at":"2024-01-15T12:30:00Z","pong":null}}}`},
		{"custom", `{"n":0,"s":"","m":0}`},
		{"keys", `{"a.b":"sample","x y":1,"é":"aa","#":true}`},
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

// TestSampleUnsatisfiable: where no candidate passes a field's rules, the
// field holds its type's zero value, which Conform reports naming the rule.
func TestSampleUnsatisfiable(t *testing.T) {
	r := entity.NewRegistry()
	r.RegisterRule(rules.Def{Name: "never", Compile: func([]string, rules.Kind) (rules.Checker, error) {
		return rules.CheckFunc(func(rules.Value) error { return errors.New("never passes") }), nil
	}})
	e := r.MustExpose("x",
		"opt", "string", "never",
		"must", "number", "req | never",
	)
	got := Sample(e)
	if want := `{"opt":"","must":0}`; string(got) != want {
		t.Errorf("Sample = %s, want %s", got, want)
	}
	tb := &fakeTB{}
	ok := Conform(tb, e, got)
	checkReport(t, tb, ok, []string{
		`opt: want string matching never, got "": never passes (never)`,
		`must: want number matching never, got 0: never passes (never)`,
	})
}

// inRule is `among 'a' 'b' …` (as the built-in `in` on strings): the value is one of the arguments. Its Sample
// hook gives the first; a copy without the hook is registered as `oneof`.
var inRule = rules.Def{
	Name: "among", MinArgs: 1, MaxArgs: -1, Types: rules.Kinds(rules.String), Params: []string{"values"},
	Compile: func(args []string, _ rules.Kind) (rules.Checker, error) {
		allowed := append([]string(nil), args...)
		errNot := errors.New("must be one of " + strings.Join(allowed, ", "))
		return rules.CheckFunc(func(v rules.Value) error {
			if slices.Contains(allowed, v.Str) {
				return nil
			}
			return errNot
		}), nil
	},
	Sample: func(args []string, _ rules.Kind) any { return args[0] },
}

// TestSampleCustomRule: a newly registered rule with a Sample hook gives
// Sample a value that Conform accepts; without the hook, the field falls
// back to the type's sample, then its zero value, and Conform names the
// rule.
func TestSampleCustomRule(t *testing.T) {
	noHook := inRule
	noHook.Name, noHook.Sample = "oneof", nil
	tests := []struct {
		name     string
		rules    string
		want     string
		conforms bool
		report   []string
	}{
		{"with a Sample hook", "among 'a' 'b'", `{"x":"a"}`, true, nil},
		{"hook and size", "min 1 | among 'bb' 'c'", `{"x":"bb"}`, true, nil},
		{"without a hook, the type's sample passes", "oneof 'x' 'sample'", `{"x":"sample"}`, true, nil},
		{"without a hook", "oneof 'a' 'b'", `{"x":""}`, false,
			[]string{`x: want string matching oneof 'a' 'b', got "": must be one of a, b (oneof)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := entity.NewRegistry()
			if err := r.RegisterRule(inRule); err != nil {
				t.Fatal(err)
			}
			if err := r.RegisterRule(noHook); err != nil {
				t.Fatal(err)
			}
			e := r.MustExpose("t", "x", "string", tt.rules)
			got := Sample(e)
			if string(got) != tt.want {
				t.Errorf("Sample = %s, want %s", got, tt.want)
			}
			tb := &fakeTB{}
			ok := Conform(tb, e, got)
			if tt.conforms {
				if !ok {
					t.Errorf("Conform: %s", quoteLines(tb.errors))
				}
				return
			}
			checkReport(t, tb, ok, tt.report)
		})
	}
}

// TestSampleBadHooks: a hook that panics, returns a value of another type,
// or one that is not JSON is skipped; Sample never panics.
func TestSampleBadHooks(t *testing.T) {
	pass := func([]string, rules.Kind) (rules.Checker, error) {
		return rules.CheckFunc(func(rules.Value) error { return nil }), nil
	}
	r := entity.NewRegistry()
	for _, d := range []rules.Def{
		{Name: "panics", Compile: pass, Sample: func([]string, rules.Kind) any { panic("boom") }},
		{Name: "wrongtype", Compile: pass, Sample: func([]string, rules.Kind) any { return 42 }},
		{Name: "notjson", Compile: pass, Sample: func([]string, rules.Kind) any { return make(chan int) }},
		{Name: "nan", Compile: pass, Sample: func([]string, rules.Kind) any { return math.NaN() }},
	} {
		if err := r.RegisterRule(d); err != nil {
			t.Fatal(err)
		}
	}
	e := r.MustExpose("t",
		"s", "string", "panics | wrongtype | notjson",
		"f", "float", "nan | panics",
	)
	if got, want := string(Sample(e)), `{"s":"sample","f":1.5}`; got != want {
		t.Errorf("Sample = %s, want %s", got, want)
	}
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

func TestSampleInput(t *testing.T) {
	tests := []struct {
		entity string
		want   string
	}{
		{"user", `{"id":42,"name":"sample","age":42,"mail":"user@example.com","code":"unknown"}`},
		{"groups", `{"id":1,"c":5,"d":"aa"}`},
		{"renamed", `{"id":1,"first":"aa","v":1}`},
		{"refs", `{"owner":{"id":42,"name":"sample","age":42,"mail":"user@example.com","code":"unknown"},` +
			`"boss":{"id":42,"name":"sample","age":42,"mail":"user@example.com","code":"unknown"},` +
			`"peer":{"id":42,"name":"sample","age":42,"mail":"user@example.com","code":"unknown"}}`},
		{"chain", `{"n":1,"next":{"n":1,"next":{"n":1,"next":[]}}}`},
		{"scalars", `{"s":"sample","n":1,"f":1.5,"b":true,"d":"2024-01-15T12:30:00Z","l":[1],"o":{},"x":"sample"}`},
		{"empty", `{}`},
		{"undeclared", `{"ghost":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.entity, func(t *testing.T) {
			if got := Sample(corpus.Lookup(tt.entity), Input); string(got) != tt.want {
				t.Errorf("Sample(Input):\n got %s\nwant %s", got, tt.want)
			}
		})
	}
	if got := Sample(nil, Input); string(got) != "null" {
		t.Errorf("Sample(nil, Input) = %s", got)
	}
}

// TestSampleInputShared: an input name two fields read (a group's field and
// its sibling's) is written once, with the first field's value.
func TestSampleInputShared(t *testing.T) {
	e := entity.NewRegistry().MustExpose("x",
		"name", "string", "min 2",
		"g", "{", "",
		"name", "string", "rename 'n'",
		"k", "number", "",
		"g", "}", "",
	)
	if got, want := string(Sample(e, Input)), `{"name":"aa","k":1}`; got != want {
		t.Errorf("Sample(Input) = %s, want %s", got, want)
	}
}

// TestSampleInputIsMade: for every entity of the corpus, MakeRequest takes
// a JSON body of Sample(e, Input), strictly and refusing unknown keys, and
// makes exactly Sample(e). Where the output sample does not conform
// (sampleConflicts, a $ref to nothing), the request fails at those fields
// only.
func TestSampleInputIsMade(t *testing.T) {
	for _, d := range corpusDecls {
		t.Run(d.name, func(t *testing.T) {
			e := corpus.Lookup(d.name)
			in := Sample(e, Input)
			r := httptest.NewRequest("POST", "/", bytes.NewReader(in))
			r.Header.Set("Content-Type", "application/json")
			o, err := e.MakeRequest(r, entity.DenyUnknown())
			if d.name == "undeclared" {
				if !errors.Is(err, entity.ErrUnknownEntity) {
					t.Errorf("MakeRequest(%s): %v, want ErrUnknownEntity", in, err)
				}
				return
			}
			if conflicts, ok := sampleConflicts[d.name]; ok {
				var ve *entity.ValidationError
				if !errors.As(err, &ve) {
					t.Fatalf("MakeRequest(%s): %v, want a ValidationError", in, err)
				}
				for _, fe := range ve.Fields {
					if !slices.Contains(conflicts, fe.Path) {
						t.Errorf("MakeRequest(%s): %s fails, which Sample satisfies: %v", in, fe.Path, fe)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("MakeRequest(%s): %v", in, err)
			}
			if got, want := o.String(), string(Sample(e)); got != want {
				t.Errorf("MakeRequest(%s):\n got %s\nwant %s (Sample)", in, got, want)
			}
		})
	}
}
