// Package jsonwire reads and writes JSON text exactly as encoding/json
// does: strings quoted and escaped as json.Marshal writes them (HTML-safe,
// U+2028 and U+2029 escaped, invalid UTF-8 replaced with U+FFFD) and
// unquoted as json.Unmarshal decodes them, numbers spelled and recognised
// as JSON's grammar has them, white space, values skipped in text already
// known to be valid, and valid text compacted as json.Marshal writes a
// json.RawMessage.
//
// It is the text layer below package entity's engine and its raw-JSON tape
// (package jsontape): nothing here knows an entity, a plan or a tape. The
// functions that read text are generic over ~string | ~[]byte where both
// forms are read, so that one scanner serves the validator, the writer and
// the readers of an Object's bytes.
//
// Nothing here allocates unless it says so, and the small helpers are kept
// small enough to be inlined into their callers in other packages.
package jsonwire
