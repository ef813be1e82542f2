package entity_test

// FuzzModel: random registries, inputs and call options, run through the
// library and through the reference model (model_test.go); their JSON and
// their error sets (paths and codes, and the messages of secret fields and
// fields with msg) must be the same.
//
//	go test -fuzz FuzzModel -run '^$' ./entity -fuzztime 10m
//	go test -run TestModelSurvey ./entity -model.survey 20000   # every disagreement, without stopping

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

var (
	mdlCollectFlag = flag.String("model.collect", "",
		"FuzzModel, FuzzModelRequest: write each case that disagrees into this directory as a corpus file and go on fuzzing, instead of failing")
)

func FuzzModel(f *testing.F) {
	for i := 0; i < 24; i++ {
		f.Add([]byte(fmt.Sprintf("seed %d %d", i, i*7919)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		mdlRunCase(t, data)
	})
}

// mdlRunCase generates the case of data and compares the library with the
// model on it.
func mdlRunCase(t *testing.T, data []byte) {
	cs, g := mdlGenerate(data)
	if cs == nil {
		return
	}
	lib, skip := cs.walker(g.lib)
	if skip {
		return
	}
	var mod mdlOutcome
	func() {
		defer func() {
			if p := recover(); p != nil {
				if _, over := p.(mdlOverBudget); over {
					mod.fail = "over budget" // the model gave up: not compared
					return
				}
				t.Fatalf("the model panicked: %v\n%s", p, cs.report())
			}
		}()
		var err error
		if mod, err = cs.model(); err != nil {
			t.Fatalf("the model cannot read the declarations: %v\n%s", err, cs.report())
		}
	}()
	if mod.fail == "over budget" {
		return
	}
	d := mdlDiff(lib, mod)
	if d == "" {
		return
	}
	if *mdlCollectFlag != "" {
		mdlSaveCorpus(t, *mdlCollectFlag, data)
		return
	}
	t.Fatalf("the library and the model disagree (scenario %s)\n%s%s", g.scenario, cs.report(), d)
}

// mdlGenerate makes the whole case of data: nil when the library refuses
// the declarations generated (the model interprets accepted ones only).
func mdlGenerate(data []byte) (*mdlCase, *mdlGen) {
	cs, g := newMdlCase(data)
	reg, err := cs.build()
	if err != nil {
		return nil, nil
	}
	g.lib = reg
	if g.reg, err = mdlNewReg(cs.keyCase, cs.flags, cs.decls); err != nil {
		panic(fmt.Sprintf("the model cannot read declarations the library accepts: %v\n%s", err, cs.report()))
	}
	g.input(cs, reg)
	g.options(cs)
	return cs, g
}

var mdlRefusedFlag = flag.Bool("model.refused", false, "TestModelSurvey: list why declarations are refused")

var mdlSaveFlag = flag.String("model.save", "", "TestModelSurvey: write the cases that disagree into this fuzz corpus directory")

// mdlSaveCorpus writes data as a file of the fuzz corpus in dir.
func mdlSaveCorpus(t *testing.T, dir string, data []byte) {
	sum := sha256.Sum256(data)
	name := filepath.Join(dir, fmt.Sprintf("%x", sum[:8]))
	if err := os.WriteFile(name, []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)), 0o644); err != nil {
		t.Fatal(err)
	}
}

var mdlCaseFlag = flag.Int("model.case", -1, "TestModelSurvey: run only this case, with details")

var mdlSurveyFlag = flag.Int("model.survey", 0, "TestModelSurvey: run this many generated cases and list the disagreements")

// TestModelSurvey runs many generated cases without stopping at the first
// disagreement, for triage: go test -run TestModelSurvey -model.survey 20000.
func TestModelSurvey(t *testing.T) {
	if *mdlSurveyFlag == 0 {
		t.Skip("set -model.survey N")
	}
	refused, ran, differ := 0, 0, 0
	shown := 0
	for i := 0; i < *mdlSurveyFlag; i++ {
		if *mdlCaseFlag >= 0 && i != *mdlCaseFlag {
			continue
		}
		sum := sha256.Sum256([]byte(fmt.Sprintf("survey %d", i)))
		data := sum[:]
		cs, g := mdlGenerate(data)
		if cs == nil {
			refused++
			if *mdlRefusedFlag {
				c, _ := newMdlCase(data)
				_, err := c.build()
				msg := err.Error()
				if i := strings.Index(msg, "): "); i >= 0 {
					msg = msg[i+3:]
				}
				msg, _, _ = strings.Cut(msg, "\n")
				t.Logf("refused: %s", msg)
			}
			continue
		}
		lib, skip := cs.walker(g.lib)
		if skip {
			continue
		}
		ran++
		var mod mdlOutcome
		var perr any
		func() {
			defer func() {
				if perr = recover(); perr != nil {
					perr = fmt.Sprintf("%v\n%s", perr, debug.Stack())
				}
			}()
			mod, _ = cs.model()
		}()
		if perr != nil {
			t.Errorf("case %d: the model panicked: %v\n%s", i, perr, cs.report())
			continue
		}
		d := mdlDiff(lib, mod)
		if d == "" {
			continue
		}
		if *mdlSaveFlag != "" {
			mdlSaveCorpus(t, *mdlSaveFlag, data)
		}
		differ++
		if shown < 40 {
			shown++
			t.Logf("case %d (scenario %s)\n%s%s\n", i, g.scenario, cs.report(), d)
		}
	}
	t.Logf("%d cases: %d declarations refused, %d compared, %d disagreements", *mdlSurveyFlag, refused, ran, differ)
}
