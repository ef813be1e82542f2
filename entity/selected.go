package entity

// Selected reports whether a response call of e made with opts
// ([Entity.Make], [Entity.MakeJSON], [Entity.AppendJSON], [Entity.Write],
// [EncodeSeq]…) writes the field at path, a dotted path of output keys as
// [Only] takes them ("list.details.mail"; `\.` is a dot within a key; a
// list of $refs is stepped through as its elements' object), so that a
// handler skips the query or the join of a field the call will not send:
//
//	opts := []entity.Option{entity.Select(r.URL.Query().Get("fields"))}
//	if users.Selected("list.orders", opts...) {
//		loadOrders(list) // not for fields=list(id,name)
//	}
//	users.Write(w, page, opts...)
//
// A field is written when every step of its path is: the selection
// ([Select], Only, [Except]) keeps it, or no selection leaves it out; its
// flags ([With], [WithContext]) and version ([Version]) show it; and it is
// not lazy, or the selection names it. A field written only when it has a
// value (omitnil, omitempty) is selected. Selected is false for a path e
// does not declare (a writeonly field among them: a response never writes
// it), so a misspelled path silently selects nothing. Check the paths a
// handler asks about once, at start-up, with Only, which refuses a path the
// entity does not have (a lazy, conditional, versioned or writeonly field
// is one it has) with an error wrapping [ErrUnknownField] that names it:
//
//	if _, err := users.MakeJSON(nil, entity.Only("list.orders", "list.details.mail")); errors.Is(err, entity.ErrUnknownField) {
//		panic(err) // a typo fails the start, not each request silently
//	}
//
// Selected is false too for a call whose options fail (a Select spec that
// does not parse, an undeclared flag in With): the call itself fails with
// that error (a 400 for the client's spec) before it writes anything.
//
// Selected reads the selection compiled for the call (the same one, from
// the same cache), so that it costs a lookup and a walk down the path: no
// allocation for a selection already seen.
func (e *Entity) Selected(path string, opts ...Option) bool {
	if e == nil || path == "" {
		return false
	}
	o := e.opts(false, opts)
	return e.c.Selected(path, &o)
}
