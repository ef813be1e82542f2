package entity_test

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestLimits: a registry's limits are one value, a zero field its default
// and a negative one the least the limit allows; NewRegistry and Configure
// take it, Limits returns the limits in force, and every call reads them.
func TestLimits(t *testing.T) {
	defaults := entity.Limits{Depth: 64, Errors: 100, BodyBytes: 1 << 20, OutputBytes: 64 << 20, RequestOutputRatio: 8}
	for _, tt := range []struct {
		name string
		give entity.Limits
		want entity.Limits
	}{
		{"none", entity.Limits{}, defaults},
		{"one, the others default", entity.Limits{Depth: 3}, entity.Limits{Depth: 3, Errors: 100, BodyBytes: 1 << 20, OutputBytes: 64 << 20, RequestOutputRatio: 8}},
		{"every one", entity.Limits{Depth: 2, Errors: 5, BodyBytes: 10, OutputBytes: 20, RequestOutputRatio: 3}, entity.Limits{Depth: 2, Errors: 5, BodyBytes: 10, OutputBytes: 20, RequestOutputRatio: 3}},
		{"negative: the least", entity.Limits{Depth: -1, Errors: -1, BodyBytes: -1, OutputBytes: -1, RequestOutputRatio: -1}, entity.Limits{Depth: 1, Errors: 1, BodyBytes: 0, OutputBytes: 1, RequestOutputRatio: 1}},
		{"too deep: the most", entity.Limits{Depth: 1 << 30}, entity.Limits{Depth: 10000, Errors: 100, BodyBytes: 1 << 20, OutputBytes: 64 << 20, RequestOutputRatio: 8}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := entity.NewRegistry(tt.give).Limits(); got != tt.want {
				t.Errorf("NewRegistry: %+v, want %+v", got, tt.want)
			}
			reg := entity.NewRegistry(entity.Limits{Depth: 7, Errors: 7})
			if err := reg.Configure(tt.give); err != nil {
				t.Fatal(err)
			}
			if got := reg.Limits(); got != tt.want {
				t.Errorf("Configure: %+v, want %+v (a Limits value sets every limit)", got, tt.want)
			}
		})
	}
	t.Run("a nil registry's are the defaults", func(t *testing.T) {
		if got := (*entity.Registry)(nil).Limits(); got != defaults {
			t.Errorf("%+v", got)
		}
	})
	t.Run("the getters read them", func(t *testing.T) {
		l := entity.Limits{Depth: 2, Errors: 5, BodyBytes: 10, OutputBytes: 20, RequestOutputRatio: 3}
		reg := entity.NewRegistry(l)
		if reg.Limits().Depth != 2 || reg.Limits().Errors != 5 || reg.Limits().BodyBytes != 10 || reg.Limits().OutputBytes != 20 || reg.Limits().RequestOutputRatio != 3 {
			t.Errorf("getters disagree with %+v", l)
		}
		setLimit(reg, func(l *entity.Limits) { l.Depth = 9 })
		if got := reg.Limits(); got.Depth != 9 || got.Errors != 5 {
			t.Errorf("after SetMaxDepth(9): %+v", got)
		}
	})
	t.Run("calls obey them", func(t *testing.T) {
		node := func(l entity.Limits) *entity.Entity {
			return expose(t, entity.NewRegistry(l), "node", "a", "number", "req", "b", "number", "req", "kid", "$node", "")
		}
		_, err := node(entity.Limits{Errors: 1}).MakeJSON(map[string]any{})
		var ve *entity.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 2 || ve.Fields[1].Rule != "limit" || ve.Omitted != 1 {
			t.Errorf("Errors 1: %v", err)
		}
		deep := map[string]any{"a": 1, "b": 2, "kid": map[string]any{"a": 1, "b": 2, "kid": map[string]any{"a": 1, "b": 2}}}
		if fe := fieldErrors(t, second(node(entity.Limits{Depth: 2}).MakeJSON(deep))); len(fe) == 0 || fe[0].Rule != "depth" {
			t.Errorf("Depth 2: %v", fe)
		}
		if _, err = node(entity.Limits{OutputBytes: 30}).MakeJSON(deep); !errors.Is(err, entity.ErrTooLarge) {
			t.Errorf("OutputBytes 30: %v", err)
		}
		req := httptest.NewRequest("POST", "/", strings.NewReader(`{"a":1,"b":2}`))
		req.Header.Set("Content-Type", "application/json")
		var ie *entity.InputError
		if _, err := node(entity.Limits{BodyBytes: 8}).MakeRequest(req); !errors.As(err, &ie) || ie.StatusCode() != 413 {
			t.Errorf("BodyBytes 8: %v", err)
		}
	})
}

// second returns the error of a pair.
func second[T any](_ T, err error) error { return err }

// TestConfigure: Configure takes the options NewRegistry takes; a key case
// once anything is exposed, or an unknown one, is refused and changes
// nothing, the other options given with it included.
func TestConfigure(t *testing.T) {
	t.Run("before anything is exposed", func(t *testing.T) {
		reg := entity.NewRegistry()
		if err := reg.Configure(entity.KeyCase(entity.CamelCase), entity.ProblemTypeBase("https://x.io/p/"), entity.Limits{Depth: 5}, nil); err != nil {
			t.Fatal(err)
		}
		if reg.KeyCase() != entity.CamelCase || reg.ProblemTypeBase() != "https://x.io/p/" || reg.Limits().Depth != 5 {
			t.Errorf("KeyCase %v, ProblemTypeBase %q, Limits %+v", reg.KeyCase(), reg.ProblemTypeBase(), reg.Limits())
		}
		if out, err := expose(t, reg, "e", "user_id", "number", "").MakeJSON(map[string]any{"user_id": 1}); err != nil || string(out) != `{"userId":1}` {
			t.Errorf("got %s, %v", out, err)
		}
		if err := reg.Configure(entity.ProblemTypeBase("")); err != nil || reg.ProblemTypeBase() != "/problems/" {
			t.Errorf("an empty base: %v, %q", err, reg.ProblemTypeBase())
		}
	})
	for _, tt := range []struct {
		name    string
		exposed bool
		style   entity.KeyCaseStyle
		want    string
	}{
		{"a key case after an Expose", true, entity.SnakeCase, `entity: Configure(KeyCase(SnakeCase)) after entity "first" was exposed: set the key case before exposing anything`},
		{"an unknown key case", false, entity.KeyCaseStyle(9), `entity: Configure: unknown key case style KeyCaseStyle(9)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
			if tt.exposed {
				expose(t, reg, "first", "user_id", "number", "")
			}
			err := reg.Configure(entity.Limits{Depth: 3}, entity.KeyCase(tt.style))
			if err == nil || err.Error() != tt.want {
				t.Errorf("Configure: %v, want %s", err, tt.want)
			}
			if reg.KeyCase() != entity.CamelCase || reg.Limits().Depth != 64 {
				t.Errorf("a refused Configure changed the registry: %v, %+v", reg.KeyCase(), reg.Limits())
			}
		})
	}
	t.Run("a nil registry", func(t *testing.T) {
		if err := (*entity.Registry)(nil).Configure(entity.Limits{}); err == nil {
			t.Error("no error")
		}
	})
}

// TestProblemTypeBaseOption: the option sets the type of the registry's
// problems, as SetProblemTypeBase does.
func TestProblemTypeBaseOption(t *testing.T) {
	reg := entity.NewRegistry(entity.ProblemTypeBase("https://api.example.com/problems/"))
	rec := httptest.NewRecorder()
	reg.WriteError(rec, &entity.ValidationError{})
	if body := rec.Body.String(); !strings.Contains(body, `"type":"https://api.example.com/problems/validation"`) {
		t.Errorf("body %s", body)
	}
}
