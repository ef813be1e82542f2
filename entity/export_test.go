package entity

// CachedMasks returns how many selections e keeps compiled, for the
// cache's bound to be tested.
func CachedMasks(e *Entity) int {
	e.cache.masks.mu.RLock()
	defer e.cache.masks.mu.RUnlock()
	return len(e.cache.masks.m)
}

// SetServerErrors sets r's log hook of 500s, as Configure's ServerErrors
// option will.
func SetServerErrors(r *Registry, f func(id string, err error)) { r.setServerErrors(f) }

// ProblemJSON returns the problem details WriteError writes for e, with
// the default problem type base.
func ProblemJSON(e *ValidationError) []byte { return e.appendProblemJSON(nil) }

// AcceptedMediaTypes returns the media types a 415 names by default.
func AcceptedMediaTypes() string { return jsonMediaType }

// PlanChains reports where a view of e (response, request, patch) and the
// plans of its groups have a chain of nodes (head, next) that is not their
// nodes in order: the walk follows the chain, other code the nodes.
func PlanChains(e *Entity) []string {
	var bad []string
	var check func(where string, p *objectPlan)
	check = func(where string, p *objectPlan) {
		n := p.head
		for i, want := range p.nodes {
			if n != want {
				bad = append(bad, where+": node "+want.out+" is not next in the chain")
				return
			}
			if want.kind == nodeGroup && want.group != nil {
				check(where+"."+want.out, want.group)
			}
			if n = n.next; i == len(p.nodes)-1 && n != nil {
				bad = append(bad, where+": the chain goes past the last node")
			}
		}
		if len(p.nodes) == 0 && p.head != nil {
			bad = append(bad, where+": a chain without nodes")
		}
	}
	for d, name := range []string{"response", "request", "patch"} {
		check(e.name+" "+name, e.view(direction(d)))
	}
	return bad
}
