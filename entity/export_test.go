package entity

// SetServerErrors sets r's log hook of 500s, as Configure's ServerErrors
// option will.
func SetServerErrors(r *Registry, f func(id string, err error)) { r.setServerErrors(f) }

// ProblemJSON returns the problem details WriteError writes for e, with
// the default problem type base.
func ProblemJSON(e *ValidationError) []byte { return e.appendProblemJSON(nil) }

// AcceptedMediaTypes returns the media types a 415 names by default.
func AcceptedMediaTypes() string { return jsonMediaType }
