package engine

import "bytes"

// The cross-field rules of an object (compile_cross.go), judged once its
// fields are made: appendShaped notes what each field the rules name
// wrote (crossSeen), then judgeCross judges each rule whose fields the
// call read.

// crossState is what the fields a plan's cross-field rules name wrote in
// one object: read (the call read it: a field the call does not read, a
// selection's unselected one in a response or one its flags hide, leaves
// the rules that name it unjudged), present (written, and not null), and
// for each required_if rule whether its field holds one of the values;
// failed, that the field's value failed (a type error, a check, in it or
// in an element of it): what it wrote instead (null, or a list its failing
// elements left empty) is no absence a rule requiring it should report
// again, since the client sent it.
type crossState struct {
	read, present, failed, kept [2 * maxCross]bool // kept: a patch's value of the server's, taken as stored (appendShaped)
	match                       [maxCross]bool
}

// crossSeen notes v, what node n wrote, and whether its value failed.
func (st *crossState) seen(p *objectPlan, n *node, v []byte, failed bool) {
	i := n.crossIdx
	st.read[i] = true
	st.failed[i] = failed
	st.present[i] = len(v) > 0 && string(v) != "null"
	if !st.present[i] {
		return
	}
	for j, cr := range p.cross {
		if k := indexCrossed(cr.others, i); cr.kind == crossRequiredIf && k >= 0 {
			for _, want := range cr.values[k] {
				if bytes.Equal(v, want) {
					st.match[j] = true
					break
				}
			}
		}
	}
}

// indexCrossed returns the index in nodes of the one tracked as i, or -1.
// (Tracked, not compared: a plan pruned for a selection holds copies of
// its view's nodes: compile_prune.go.)
func indexCrossed(nodes []*node, i int8) int {
	for k, o := range nodes {
		if o.crossIdx == i {
			return k
		}
	}
	return -1
}

// judgeCross judges the plan's cross-field rules on what the object's
// fields, read from src, wrote, recording each that fails as its target
// field's (read under its wire key when src is in the wire form).
//
//go:noinline
func (r *run) judgeCross(p *objectPlan, st *crossState, src *source) {
	for j, cr := range p.cross {
		t := cr.target.crossIdx
		judged := st.read[t]
		anyPresent, allAbsent := false, true
		nameRead := false // a name is read when the field of one of its version ranges is
		for k, o := range cr.others {
			if k > 0 && cr.name[k] != cr.name[k-1] {
				judged, nameRead = judged && nameRead, false
			}
			nameRead = nameRead || st.read[o.crossIdx]
			if st.present[o.crossIdx] {
				anyPresent, allAbsent = true, false
			}
		}
		judged = judged && nameRead
		if judged && st.kept[t] {
			// a rule of a value taken as stored is judged when the patch
			// gives or clears a field it names
			judged = false
			for _, o := range cr.others {
				judged = judged || st.read[o.crossIdx] && !st.kept[o.crossIdx]
			}
		}
		if !judged || st.failed[t] && !st.present[t] && cr.kind != crossExcludedWith {
			continue // a field whose value failed has its error: one per field and cause
		}
		var fails bool
		switch cr.kind {
		case crossRequiredIf:
			fails = st.match[j] && !st.present[t]
		case crossRequiredWith:
			fails = anyPresent && !st.present[t]
		case crossRequiredWithout:
			fails = allAbsent && !st.present[t]
		case crossExcludedWith:
			fails = anyPresent && st.present[t]
		}
		if fails {
			code := crossCodes[cr.kind]
			params, msg := cr.params, cr.msg
			if r.secret > 0 && cr.kind == crossRequiredIf { // under a secret $ref every field is secret: no values said
				params, msg = params[:1], "secret"
			}
			n := cr.target
			if src.wire && n.wire != nil {
				n = n.wire // read from an Object in the wire form: its key there (appendSlow)
			}
			if n.from != nil {
				// its path names the number steps of its from path as its
				// read took them (fromKeysOf), which other reads followed
				r.fromOf = n
				_, r.fromKeys = r.descend(src.get(n.from.first), n.from.rest)
			}
			r.record(n, failure{rule: code, code: code, kind: msg, params: (&ruleInfo{params: params}).paramMap(), err: errCross[cr.kind]})
		}
	}
}
