package engine

import (
	"testing"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/rules"
)

// The engine's own tests compile entities in an environment of their own,
// without package entity: newTestEnv and expose are what a registry does
// with a declaration (parse, compile, stage, store).

func newTestEnv() *Env { return NewEnv(rules.Builtin()) }

// expose compiles the triples decl as entity name in env and stores it.
func expose(t testing.TB, env *Env, name string, decl ...string) *Entity {
	t.Helper()
	tree, err := dsl.Parse(name, decl...)
	if err != nil {
		t.Fatalf("parse %q: %v", name, err)
	}
	e, err := Compile(env, tree)
	if err != nil {
		t.Fatalf("compile %q: %v", name, err)
	}
	ch := env.Begin()
	defer ch.End()
	ch.Stage(e)
	if errs := ch.MergeErrors(func(*Entity) string { return "" }); len(errs) > 0 {
		t.Fatalf("expose %q: %v", name, errs)
	}
	ch.Store()
	return e
}
