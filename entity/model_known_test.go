package entity_test

// The known disagreements between the library and the reference model:
// where, judged from the docs, the library is wrong (or the docs do not
// decide). Each is a named entry with a minimal reproduction, what each
// side gives for it, and the doc sentence; and a bug knob of the model that
// reproduces the library's behaviour, so that FuzzModel recognises a case
// of a known disagreement (the library then gives what the model gives with
// that knob on) and keeps fuzzing past it. TestModelKnownDisagreements
// checks that each reproduction still disagrees: when the library is fixed,
// it fails and says which entry (and knob) to delete.

import (
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// mdlBug is a set of known disagreements the model can reproduce.
type mdlBug uint64

// The knobs, one bit each (none now: every known disagreement that had one
// is fixed), and all of them.
const mdlBugAll mdlBug = 0

// mdlKnown is one known disagreement.
type mdlKnown struct {
	name string
	bug  mdlBug
	doc  string // the sentence of the docs the library does not follow
	// repro is a minimal reproduction; setup, if set, completes it with
	// the library's registry (an Object input).
	repro mdlCase
	setup func(cs *mdlCase, reg *entity.Registry)
	// skip, for an entry without a knob, recognises its cases: a
	// declaration the library should have refused.
	skip func(cs *mdlCase) bool
	// lib and mod are what the library and the model give for it.
	lib, mod string
}

var mdlKnowns = []mdlKnown{
	{
		name: "ObjectWithFormatMadeAgain",
		doc: `go doc entity: an *Object the same entity made otherwise (with shaping options, from a request) "is made again from its output keys, a formatted value read back in the format that wrote it": ` +
			`the model does not read a formatted value (a date as '2006-01-02 15:04', unix seconds) back; the library does`,
		repro: mdlCase{
			decls:  []mdlDecl{{"e0", []string{"d", "date", "format '2006-01-02 15:04'"}}},
			entity: "e0",
			opts:   mdlOpts{strict: true},
		},
		setup: func(cs *mdlCase, reg *entity.Registry) {
			obj, err := reg.Lookup("e0").Make(map[string]any{"d": "2024-01-15T10:30:00Z"}, entity.Version("v1"))
			if err != nil {
				panic(err)
			}
			cs.input = obj
			cs.prov = map[*entity.Object]mdlProv{obj: {entity: "e0", shaped: true}}
		},
		skip: mdlObjectsFormatted,
		lib:  `{"d":"2024-01-15 10:30"}`,
		mod:  "(the model does not read a formatted value back)",
	},
}

// mdlKnownMatch returns the known disagreements that explain the case, or
// nil. The case's declarations may be one the library should have refused
// (a skip entry); or the library gives what the model gives with some of
// the bug knobs on: the JSON of one of those readings, or field errors each
// of which one reading predicts, holding every error all readings share.
// The readings are the model's, with every knob on, with each knob on, and
// with every knob but one on (the library's known bugs interact).
func mdlKnownMatch(cs *mdlCase, lib, mod mdlOutcome) []string {
	for _, k := range mdlKnowns {
		if k.skip != nil && k.skip(cs) {
			return []string{k.name}
		}
	}
	sets := []mdlBug{mdlBugAll}
	for _, k := range mdlKnowns {
		if k.bug != 0 {
			sets = append(sets, k.bug, mdlBugAll&^k.bug)
		}
	}
	var alts []mdlOutcome
	for _, b := range sets {
		alt, err := cs.modelWith(b)
		if err != nil {
			return nil
		}
		if mdlDiff(lib, alt) == "" {
			return mdlKnownNames(cs, mod, b)
		}
		alts = append(alts, alt)
	}
	if !mdlExplains(lib, append([]mdlOutcome{mod}, alts...)) {
		return nil
	}
	return mdlKnownNames(cs, mod, mdlBugAll)
}

// mdlExplains reports whether the readings explain lib's field errors: each
// is one reading's, and every error all readings share is there. (A JSON
// outcome is a reading without errors.)
func mdlExplains(lib mdlOutcome, all []mdlOutcome) bool {
	if lib.errs == nil {
		return false
	}
	var readings []mdlOutcome
	for _, r := range all {
		if r.fail == "" {
			readings = append(readings, r)
		}
	}
	if len(readings) == 0 {
		return false
	}
	union := map[string]bool{}
	common := map[string]int{}
	for _, r := range readings {
		for _, k := range mdlErrKeys(r.errs) {
			union[k] = true
			common[k]++
		}
	}
	got := map[string]bool{}
	for _, k := range mdlErrKeys(lib.errs) {
		if !union[k] {
			return false
		}
		got[k] = true
	}
	for k, n := range common {
		if n == len(readings) && !got[k] {
			return false
		}
	}
	return true
}

// mdlKnownNames names the entries among bugs whose knob changes the case.
func mdlKnownNames(cs *mdlCase, mod mdlOutcome, bugs mdlBug) []string {
	var names []string
	for _, k := range mdlKnowns {
		if k.bug&bugs == 0 {
			continue
		}
		if one, _ := cs.modelWith(k.bug); mdlDiff(one, mod) != "" {
			names = append(names, k.name)
		}
	}
	if names == nil {
		names = []string{"(several together)"}
	}
	return names
}

// modelWith runs the model with the given bugs reproduced.
func (cs *mdlCase) modelWith(bugs mdlBug) (mdlOutcome, error) {
	m, err := mdlNewReg(cs.keyCase, cs.flags, cs.decls)
	if err != nil {
		return mdlOutcome{}, err
	}
	m.bugs = bugs
	in := cs.input
	if cs.opts.request {
		in = cs.request()
	}
	return m.run(cs.entity, in, cs.opts, cs.prov), nil
}

// mdlDescribe prints an outcome as the table's lib and mod columns do:
// errors with their messages or output paths where the entry needs them.
func mdlDescribe(o mdlOutcome, detail string) string {
	if o.errs == nil || detail == "" {
		return o.String()
	}
	var parts []string
	for _, e := range o.errs {
		switch detail {
		case "message":
			parts = append(parts, e.path+":"+e.code+` (message "`+e.msg+`")`)
		case "output path":
			parts = append(parts, e.path+":"+e.code+" (output path "+e.outPath+")")
		}
	}
	return "field errors: " + strings.Join(parts, " ")
}

// mdlTriples gives a declaration's triples without its leading methods.
func mdlTriples(d mdlDecl) []string {
	if len(d.triples)%3 == 1 {
		return d.triples[1:]
	}
	return d.triples
}

func mdlHasWord(rs, word string) bool {
	for _, r := range strings.Split(rs, "|") {
		if w, _, _ := strings.Cut(strings.TrimSpace(r), " "); strings.EqualFold(w, word) {
			return true
		}
	}
	return false
}

// mdlObjectsFormatted reports an input Object that is made again while it,
// or an entity it references, has a formatted field.
func mdlObjectsFormatted(cs *mdlCase) bool {
	if len(cs.prov) == 0 {
		return false
	}
	for _, d := range cs.decls {
		t := mdlTriples(d)
		for i := 0; i+2 < len(t); i += 3 {
			if mdlHasWord(t[i+2], "format") || strings.Contains(t[i+2], "format ") {
				return true
			}
		}
	}
	return false
}

func TestModelKnownDisagreements(t *testing.T) {
	for _, k := range mdlKnowns {
		t.Run(k.name, func(t *testing.T) {
			cs := k.repro
			reg, err := cs.build()
			if k.setup != nil && err == nil {
				k.setup(&cs, reg)
			}
			if k.skip != nil {
				if err != nil {
					t.Fatalf("the library now refuses the declaration (%v): delete this entry", err)
				}
				if !k.skip(&cs) {
					t.Errorf("the entry's predicate does not recognise its reproduction")
				}
				lib, _ := cs.walker(reg)
				if got := lib.String(); got != k.lib {
					t.Errorf("library: %s, want %s", got, k.lib)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			detail := ""
			switch {
			case strings.Contains(k.mod+k.lib, "(message"):
				detail = "message"
			case strings.Contains(k.mod+k.lib, "(output path"):
				detail = "output path"
			}
			mod, err := cs.model()
			if err != nil {
				t.Fatal(err)
			}
			if got := mdlDescribe(mod, detail); got != k.mod {
				t.Errorf("model: %s, want %s", got, k.mod)
			}
			lib, _ := cs.walker(reg)
			if got := mdlDescribe(lib, detail); got != k.lib {
				if mdlDiff(lib, mod) == "" {
					t.Fatalf("the library now agrees with the model (%s): delete this entry and its bug knob", got)
				}
				t.Errorf("library: %s, want %s", got, k.lib)
			}
			alt, _ := cs.modelWith(k.bug)
			if mdlDiff(lib, alt) != "" && !mdlExplains(lib, []mdlOutcome{mod, alt}) {
				t.Errorf("the model with the entry's bug knob gives %s, not the library's %s", alt, lib)
			}
		})
	}
}
