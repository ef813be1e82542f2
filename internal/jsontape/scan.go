package jsontape

import (
	"math"
	"strings"

	"github.com/expose-go/expose/internal/jsonwire"
)

// MaxNesting is the deepest raw JSON input read at all, as encoding/json
// refuses to decode deeper (package entity's depth limit, lower, applies to
// what is made of it).
const MaxNesting = 10000

// Code says why Scan refused its input. With it, Scan returns the offset
// where the text stopped being JSON; for the codes marked "refined",
// SyntaxError finds the exact byte inside the token that begins there.
type Code uint8

const (
	OK              Code = iota
	TooDeep              // nested deeper than the limit
	TooLarge             // larger than the tape's offsets can say
	codeEOF              // the text ends where more is needed
	codeWantKey          // an object member must begin with a string key
	codeWantColon        // a key must be followed by ':'
	codeWantObjNext      // a member must be followed by ',' or '}'
	codeWantArrNext      // an element must be followed by ',' or ']'
	codeWantEnd          // the top-level value must be followed by nothing
	codeBadString        // refined: the string literal beginning here is invalid
	codeBadNumber        // refined: no value, or an invalid number, begins here
	codeBadLiteral       // refined: the true, false or null beginning here is misspelt

	// Found by SyntaxError's walks only.
	codeBadControl // an unescaped control character in a string
	codeWantValue  // no value begins here
)

// tapeWriter is what Scan keeps of the containers it meets: the tape, and
// the containers open, as a list through the tape. While a container is
// open, its entry holds its start and the ordinal of the container around
// it (-1 for none), so that no stack is needed.
type tapeWriter struct {
	t     []int32
	open  int32 // the innermost open container
	depth int   // how many are open
}

// Scan validates b as one JSON value with optional white space around it,
// nested at most maxNesting deep, and records its string literals and
// containers in *tape (reusing its storage). On failure it also returns
// the offset where b stops being JSON, or, for the refined codes, where
// the token that is invalid begins (see SyntaxError).
func Scan(b string, maxNesting int, tape *[]int32) (Code, int) {
	if len(b) > math.MaxInt32 {
		return TooLarge, 0
	}
	// The tape and the open containers are kept in memory, where the
	// deferred store makes them live: in registers, they would be saved
	// and restored around each string literal scanned, which costs more
	// than the few loads and stores where they are used.
	w := tapeWriter{t: (*tape)[:0], open: -1}
	defer func() { *tape = w.t }()
	n := len(b)
	i := 0
	closer := byte(0) // what closes the innermost open container
	wantKey := false
value:
	for {
		for i < n && jsonwire.IsSpace(b[i]) {
			i++
		}
		if i == n {
			return codeEOF, n
		}
		c := b[i]
		if wantKey && c != '"' {
			return codeWantKey, i
		}
		switch c {
		case '"':
			// Most literals are plain ASCII to their closing quote: the
			// rest go on byte by byte from the first byte that is not.
			end, plain := jsonwire.Plain(b, i+1, jsonwire.StopNonASCII), true
			if end < n && b[end] == '"' {
				end++
			} else if end, plain = scanString(b, end); end < 0 {
				return codeBadString, i
			}
			size := int32(end - i)
			if !plain {
				size = -size
			}
			t := w.t
			if len(t) == cap(t) {
				t = growTape(t, b, i, maxNesting-w.depth)
			}
			w.t = append(t, size)
			i = end
			if wantKey {
				wantKey = false
				for i < n && jsonwire.IsSpace(b[i]) {
					i++
				}
				if i == n || b[i] != ':' {
					return codeWantColon, i
				}
				i++
				continue value
			}
		case '{', '[':
			if w.depth == maxNesting {
				return TooDeep, i
			}
			if len(w.t)+2 > cap(w.t) {
				w.t = growTape(w.t, b, i, maxNesting-w.depth)
			}
			w.t = append(w.t, int32(i), w.open)
			w.open = int32(len(w.t) - 2)
			w.depth++
			closer = c + 2 // '{'+2 is '}', '['+2 is ']'
			i++
			for i < n && jsonwire.IsSpace(b[i]) {
				i++
			}
			if i < n && b[i] == closer {
				break // empty: closed below
			}
			wantKey = c == '{'
			continue value
		case 't':
			if i+4 > n || b[i:i+4] != "true" {
				return codeBadLiteral, i
			}
			i += 4
		case 'f':
			if i+5 > n || b[i:i+5] != "false" {
				return codeBadLiteral, i
			}
			i += 5
		case 'n':
			if i+4 > n || b[i:i+4] != "null" {
				return codeBadLiteral, i
			}
			i += 4
		default:
			end := jsonwire.NumberEnd(b, i)
			if end < 0 {
				return codeBadNumber, i
			}
			i = end
		}
		for {
			for i < n && jsonwire.IsSpace(b[i]) {
				i++
			}
			if i == n {
				if w.depth == 0 {
					return OK, 0
				}
				return codeEOF, n
			}
			switch c := b[i]; {
			case c == ',' && closer != 0:
				i++
				wantKey = closer == '}'
				continue value
			case c == closer && closer != 0:
				e := w.t[w.open : w.open+2 : w.open+2]
				start, outer := e[0], e[1]
				e[0], e[1] = int32(i)-start+1, int32(len(w.t))
				w.open, w.depth = outer, w.depth-1
				closer = 0
				if w.open >= 0 {
					closer = b[w.t[w.open]] + 2
				}
				i++
			case closer == '}':
				return codeWantObjNext, i
			case closer == ']':
				return codeWantArrNext, i
			default:
				return codeWantEnd, i
			}
		}
	}
}

// growTape returns t with room for every entry of the text from b[i:] on,
// in one allocation of just that (a slice grown by append would allocate
// about five times its final size in all on the way). unclosed is how
// many containers may still be opened there and not closed before Scan
// refuses the text. Each container begun in b[i:] has its opening bracket
// there and, unless it is one of those, its closing bracket; each string
// literal its two quotes. So the count is at most a word for each byte,
// and a word for each unclosed container (see the tape).
//
//go:noinline
func growTape(t []int32, b string, i, unclosed int) []int32 {
	rest := b[i:]
	containers := strings.Count(rest, "{") + strings.Count(rest, "[")
	if containers > unclosed { // most text has fewer: no need to count further
		containers = min(containers, strings.Count(rest, "}")+strings.Count(rest, "]")+unclosed)
	}
	grown := make([]int32, len(t), len(t)+2*containers+strings.Count(rest, `"`)/2)
	copy(grown, t)
	return grown
}

// scanString goes on validating a string literal from b[i], the first byte
// of its content that is not plain ASCII (or the end of b), and returns the
// offset after its closing quote, or -1, and whether the literal is plain:
// no escapes, all ASCII, so that its content is its value. Bytes of
// invalid UTF-8 are accepted, as encoding/json accepts them (its decoder
// replaces them with U+FFFD).
func scanString(b string, i int) (int, bool) {
	n := len(b)
	stops := jsonwire.StopNonASCII // stop at non-ASCII bytes too, until one is found
	for {
		if i == n {
			return -1, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, stops == jsonwire.StopNonASCII
		case c == '\\':
			stops = jsonwire.StopUnsafe
			if i++; i == n {
				return -1, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= n || jsonwire.Hex4(b, i+1) < 0 {
					return -1, false
				}
				i += 4
			default:
				return -1, false
			}
			i++
		case c >= 0x80:
			stops = jsonwire.StopUnsafe
			i++
		default: // a control character
			return -1, false
		}
		// To the next byte that is not plain text.
		i = jsonwire.Plain(b, i, stops)
	}
}
