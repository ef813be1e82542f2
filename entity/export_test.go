package entity

import "github.com/expose-go/expose/internal/engine"

// SetServerErrors sets r's log hook of 500s, as Configure's ServerErrors
// option will.
func SetServerErrors(r *Registry, f func(id string, err error)) { r.setServerErrors(f) }

// ProblemJSON returns the problem details WriteError writes for e, with
// the default problem type base.
func ProblemJSON(e *ValidationError) []byte { return e.appendProblemJSON(nil) }

// AcceptedMediaTypes returns the media types a 415 names by default.
func AcceptedMediaTypes() string { return jsonMediaType }

// BindText stores o's values in dst the way Bind did before its writer:
// encoding/json of the declared text, what the writer is compared with.
func BindText(o *Object, dst any) error { return engine.BindText(o.m(), dst) }
