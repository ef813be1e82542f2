package entity

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/expose-go/expose/internal/pathfmt"
)

// PATCH: a JSON Merge Patch (RFC 7396) applied to the current value of a
// resource, validated as the entity. The current value is server data,
// read as Make reads it, into the wire form with every field (the view
// dirPatchCurrent); the patch is a request's body in the wire form; the
// merged value is read back strictly in the wire form (the view dirPatch)
// and is the result. Both views hold every field, readonly and writeonly:
// a readonly field keeps its current value (a patch's is ignored, as a
// POST's is), and a writeonly one the patch does not touch is not
// required (the server need not hold it).

// MergePatchType is the media type of a JSON Merge Patch, the body Patch
// reads.
const MergePatchType = "application/merge-patch+json"

// Patch reads the request r, a JSON Merge Patch (RFC 7396, Content-Type
// application/merge-patch+json) in the wire form, and applies it to
// current, the resource's value as the server holds it (a map, a struct,
// raw JSON, an *Object: any input Make reads), with the entity: a key the
// patch leaves out keeps its value, a null clears it, an object merges
// into a group's or a $name's object, anything else replaces the value.
// Then it judges the merged value as the entity judges a request, strictly
// (a req field the patch clears is a 400), but that a readonly field keeps
// its current value (the patch's is ignored) and a writeonly one the
// patch does not touch is not required.
//
// It returns the merged value, an Object holding the fields of both
// directions (Get, Map and Bind see its writeonly values; MarshalJSON and
// every response write it through the response view, without them), and
// the paths of the fields the patch set or cleared ("name",
// "address.city"), in the order the patch gives them. Nothing is changed
// on failure: current is only read.
//
// The errors are MakeRequest's: a *ValidationError for the fields that
// fail (400), an *InputError for the request itself (405 for a method the
// declaration does not name, 415 for another Content-Type, 413 for a body
// past the limit, 400 for a body that is no JSON object); a current value
// that does not make (it fails its entity as server data) is the server's
// error (500).
func (e *Entity) Patch(r *http.Request, current any, opts ...Option) (_ *Object, touched []string, err error) {
	if e == nil {
		return nil, nil, errNilEntity
	}
	if r == nil {
		return nil, nil, newInputError(ErrUnsupportedMediaType, "problem.media.patch", nil)
	}
	defer func() {
		if err != nil { // the errors of the request in its language, whichever step failed
			err = inLang(err, e.reg.requestLang(r, opts))
		}
	}()
	if len(e.methods) > 0 && !slices.Contains(e.methods, r.Method) {
		ie := newInputError(ErrMethod, "problem.method", map[string]any{"allow": strings.Join(e.methods, ", ")})
		ie.Allow = strings.Join(e.methods, ", ")
		return nil, nil, ie
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != MergePatchType {
		ie := newInputError(ErrUnsupportedMediaType, "problem.media.patch", nil)
		ie.Accept = MergePatchType
		return nil, nil, ie
	}
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		if body, err = readBody(r, e.reg.lim().BodyBytes); err != nil {
			return nil, nil, bodyError(err)
		}
	}

	// The current value, in the wire form with every field.
	var cur run
	cur.start(e, topObject, dirPatchCurrent, nil)
	curJSON, err := cur.walkCopy(e, current)
	if err != nil {
		return nil, nil, err
	}

	// The patch, merged into it.
	var run run
	run.start(e, topObject, dirPatch, opts)
	if run.cfg.lang == "" {
		run.cfg.lang = r.Header.Get("Accept-Language")
	}
	defer run.done()
	if run.fatal != nil {
		return nil, nil, run.fatal
	}
	if _, err := run.parseJSONOf(body, true); err != nil {
		return nil, nil, err
	}
	var patch, target map[string]any
	if err := decodeNumbers(body, &patch); err != nil {
		return nil, nil, newInputError(ErrInvalidJSON, "problem.json", nil)
	}
	if err := decodeNumbers(curJSON, &target); err != nil {
		return nil, nil, err
	}
	m := merger{run: &run}
	merged, err := json.Marshal(m.object(target, patch, e.view(dirPatch), nil, 0))
	if err != nil {
		return nil, nil, err
	}

	// The merged value, judged in the wire form.
	run.request, run.reqBody = true, true
	run.maxOut = int(min(e.reg.requestOutputLimit(int64(len(body)+len(curJSON))), maxOutputLimit))
	data, err := run.walkCopy(e, merged)
	if len(m.cleared) > 0 {
		err = withFailures(e, err, m.cleared)
	}
	if err != nil {
		return nil, nil, err
	}
	o := &Object{plan: e.view(dirPatch), data: data, made: run.made()}
	if len(e.checks) > 0 {
		if err := e.runChecks(r, o); err != nil {
			return nil, nil, err
		}
	}
	return o, m.touched, nil
}

// decodeNumbers decodes JSON text keeping its numbers' text.
func decodeNumbers(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}

// merger applies a merge patch to a target with a view of the entity,
// recording the paths it touches.
type merger struct {
	run     *run
	touched []string
	cleared []*FieldError // writeonly req fields the patch clears: the view does not require them
}

// object merges patch into target, objects of the plan p at path, as RFC
// 7396 merges them: a null removes a key, an object merges into an object
// of a group or a $name, anything else replaces. A readonly field's key is
// ignored; a key the plan does not read stays, for DenyUnknown.
func (m *merger) object(target, patch map[string]any, p *objectPlan, path []byte, depth int) map[string]any {
	if target == nil {
		target = map[string]any{}
	}
	keys := make([]string, 0, len(patch))
	for k := range patch {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the order of the paths returned (a map has none of its own)
	for _, k := range keys {
		pv := patch[k]
		n := m.run.wireNode(p, k, 0)
		if n != nil && n.readOnly {
			continue // the server's own: ignored, as in a POST
		}
		at := path
		if len(at) == 0 {
			at = pathfmt.AppendFirstKey(nil, k)
		} else {
			at = pathfmt.AppendKey(slices.Clip(at), k)
		}
		sub, isObj := pv.(map[string]any)
		if p := m.run.objectOf(n); isObj && p != nil && depth < m.run.ent.reg.lim().Depth {
			old, _ := target[k].(map[string]any)
			target[k] = m.object(old, sub, p, at, depth+1)
			continue
		}
		if n != nil {
			m.touched = append(m.touched, string(at))
		}
		if pv == nil {
			delete(target, k)
			if n != nil && n.writeOnly && n.patchReq {
				m.cleared = append(m.cleared, m.run.clearedError(n, string(at)))
			}
			continue
		}
		if isObj {
			pv = withoutNulls(sub)
		}
		target[k] = pv
	}
	return target
}

// withoutNulls returns an object patched into nothing: its nulls removed,
// at every depth (RFC 7396).
func withoutNulls(o map[string]any) map[string]any {
	for k, v := range o {
		switch x := v.(type) {
		case nil:
			delete(o, k)
		case map[string]any:
			o[k] = withoutNulls(x)
		}
	}
	return o
}

// wireNode returns the node of p that reads the wire key k, looking into
// merged references (their keys are p's), or nil.
func (r *run) wireNode(p *objectPlan, k string, depth int) *node {
	for _, n := range p.nodes {
		if !n.merge && n.src == srcBody && n.in == k {
			return n
		}
	}
	if depth > maxMergeDepth {
		return nil
	}
	for _, n := range p.nodes {
		if n.merge {
			if t := r.refTarget(n); t != nil {
				if m := r.wireNode(t.view(r.dir), k, depth+1); m != nil {
					return m
				}
			}
		}
	}
	return nil
}

// objectOf returns the plan of the object a node holds, for a merge patch
// that merges into it: a group's, a $name's (not a list's); nil for any
// other.
func (r *run) objectOf(n *node) *objectPlan {
	switch {
	case n == nil:
		return nil
	case n.kind == nodeGroup:
		return n.group
	case n.kind == nodeRef && !n.refList && !n.merge:
		if t := r.refTarget(n); t != nil {
			return t.view(r.dir)
		}
	}
	return nil
}

// clearedError is the FieldError of a writeonly req field a patch clears,
// at path.
func (r *run) clearedError(n *node, path string) *FieldError {
	f := failure{rule: "req", code: "required", err: errRequired}
	fe := &FieldError{Path: path, OutputPath: path, Pointer: pointerOf(path), Rule: f.rule, Code: f.code}
	fe.Message = r.message(n, n.in, f.code, nil, f, false)
	return fe
}

// pointerOf returns the JSON Pointer of a dotted path of plain keys.
func pointerOf(path string) string {
	var b []byte
	for _, k := range strings.Split(path, ".") {
		b = pathfmt.AppendPointerToken(b, k)
	}
	return string(b)
}

// withFailures adds field errors to a call's error: to its
// ValidationError, or as one.
func withFailures(e *Entity, err error, fs []*FieldError) error {
	if ve, ok := err.(*ValidationError); ok {
		ve.Fields = append(ve.Fields, fs...)
		return ve
	}
	if err != nil {
		return err
	}
	return &ValidationError{Entity: e.name, Fields: fs}
}
