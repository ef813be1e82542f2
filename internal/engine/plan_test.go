package engine

import "testing"

// TestPlanChainsFollowNodes: every view's chain of nodes, which the walk
// follows, is its nodes in order, in groups too.
func TestPlanChainsFollowNodes(t *testing.T) {
	env := newTestEnv()
	addr := expose(t, env, "addr", "GET",
		"city", "string", "",
		"zip", "string", "writeonly",
	)
	user := expose(t, env, "user", "GET",
		"id", "number", "readonly",
		"password", "string", "writeonly",
		"details", "{", "",
		"secret", "string", "writeonly",
		"mail", "string", "email",
		"inner", "{", "",
		"x", "number", "readonly",
		"inner", "}", "",
		"details", "}", "",
		"home", "$addr", "merge",
		"old", "string", "until 2",
		"new", "string", "since 2",
		"last", "string", "writeonly",
	)
	for _, e := range []*Entity{user, addr} {
		for d, name := range []string{"response", "request", "patch"} {
			checkChain(t, e.name+" "+name, e.view(direction(d)))
		}
	}
}

// checkChain reports where the chain of nodes (head, next) of p and of its
// groups is not their nodes in order.
func checkChain(t *testing.T, where string, p *objectPlan) {
	t.Helper()
	n := p.head
	for i, want := range p.nodes {
		if n != want {
			t.Errorf("%s: node %s is not next in the chain", where, want.out)
			return
		}
		if want.kind == nodeGroup && want.group != nil {
			checkChain(t, where+"."+want.out, want.group)
		}
		if n = n.next; i == len(p.nodes)-1 && n != nil {
			t.Errorf("%s: the chain goes past the last node", where)
		}
	}
	if len(p.nodes) == 0 && p.head != nil {
		t.Errorf("%s: a chain without nodes", where)
	}
}
