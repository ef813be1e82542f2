/*
Package dsl implements the language of expose's entity declarations. A
declaration says, field by field, what JSON an entity writes and what it
reads: each field's name, its type, and its rules. Declarations are written
as flat lists of strings, three a field (read by [Parse]), or as .entity
files (read by [ParseFile]), and printed back in either form
([Entity.Triples], [File.Print]).

This comment is the reference of the language. Package dsl knows its syntax
only; package [rules] defines its types ([rules.Kind]) and what each rule
checks ([rules.Def]); package entity compiles declarations into plans and
runs them ([github.com/expose-go/expose/entity.Registry.Expose],
[github.com/expose-go/expose/entity.Registry.LoadFS],
[github.com/expose-go/expose/entity.Entity.Make]).

A declaration of the entity user, as Go code gives it to Expose:

	"id", "number", "num | rename 'number'",
	"name", "string", "req",
	"details", "{", "",
	"age", "number", "num",
	"mail", "string", "email",
	"details", "}", "",
	"code", "string", "default 'unknown'",

The same declaration in an .entity file:

	# A user of the shop.
	user {
	  id       number  num | rename 'number'
	  name     string  req
	  details  {
	    age   number  num
	    mail  string  email
	  }
	  code     string  default 'unknown'
	}

Made from the input {"id": "12", "name": "ann", "age": 30, "extra": true},
it writes

	{"number":12,"name":"ann","details":{"age":30,"mail":null},"code":"unknown"}

and made from {"id": "x", "mail": "nope"} it fails with two field errors,
"name: is required" and "mail: must be a valid email address".

# Declarations

A declaration is an entity's name and its fields, in order. Each field is a
triple of strings: its name, its type and its rules. The output writes the
fields' keys in declaration order. Keys of the input that no field reads
are dropped (a call with
[github.com/expose-go/expose/entity.DenyUnknown] refuses them). A declared field that
is absent from the input, or null, is written as null, unless its default
fills it, req refuses it or omitnil leaves it out. A value that does not
convert to the field's type is null too ("abc" on a number field), which
default may fill and req refuse; a call that reads strictly, as requests
are read, makes it a field error of code "type" instead
([github.com/expose-go/expose/entity.Strict]); in a registry of
[github.com/expose-go/expose/entity.JSONTypes] a request's JSON body
gives a number, float, bool or date as its JSON type, never as text.

A field's name is the key it reads from the server's data and, unless
rename says otherwise, the output key it writes, in the registry's key case
([github.com/expose-go/expose/entity.KeyCase]). A request is read in the
shape a response writes: under the output key, a group as the object under
its key ([github.com/expose-go/expose/entity.Entity.MakeRequest]). A name
is any text but an empty one or white space only. A field whose name starts
with X-, at the top level of an entity, is read from a request's headers
only (see Sources); it is refused inside a group.

A declaration may start with one more string, the HTTP methods a request
for the entity must use, as msful's validate took the method first:
"POST", "GET|HEAD", "PUT, PATCH" (methods separated by "|", "," or white
space; GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, CONNECT and TRACE).
It is recognised when the strings number one more than a multiple of three
and the first is such a list; a request of another method is refused with
status 405. The methods end up in [Entity.Methods].

A request body is JSON. The word form among the methods ("POST form",
"POST|PUT form", or "form" alone for any method; in any case) lets the
entity's requests send a form instead
(application/x-www-form-urlencoded or multipart/form-data, top-level
fields only), as an HTML form posts it ([Entity.Forms]); without it a form
body is refused with status 415. In an .entity file the word stands with
the methods: "login POST form {".

# Types

A field's type says what it writes. Type names are case-insensitive and
white space around them is ignored; each has aliases. The types, their
names and their aliases are defined once, by package rules
([rules.Kind], [rules.LookupKind]):

	none     no                           the value as it is, written with encoding/json's rules
	string   text                         a JSON string
	number   num, int, integer, long      an integer in int64's range
	float    double                       a float64, spelled as encoding/json spells it
	bool     boolean, flag                true or false
	date     datetime, timestamp          an RFC 3339 string in UTC (time.RFC3339Nano's layout)
	list     array                        a JSON array
	object   map, json                    a JSON object
	[]T      T a scalar type, above       a typed list: a JSON array of T (see Typed lists)
	{        then "}"                     a group: an object of the fields between (see Groups)
	$name    $'a name'                    a reference: the object entity name makes (see References)
	[]$name                               a list of objects entity name makes
	$a|$b    $a|$b|$c                     a union: one object of one of the entities (see Unions)
	[]$a|$b                               a list of them

The section Conversions says which input values each type reads, and how.

# Typed lists

"tags", "[]string", "min 1 | max 20 | each 'trim | min 1 | max 30'" is a
list whose elements are strings. The element type is a scalar type:
string, number, float, bool or date, under any of their names ([]int,
[]text, []timestamp…) ([Field.List], [Field.Elem]).

  - The input must be a list (a Go slice or array, a JSON array); anything
    else is null (reading strictly, a "type" error).
  - Each element is converted as a field of the element type converts its
    value. An element that does not convert is written as null, so that
    indexes stay aligned (strictly, a "type" error at tags[3]); a null
    element stays null in a response. A request read strictly (MakeRequest,
    Bind and Patch, unless given Lax) refuses a null element: a "type"
    error at its index, as for a []$name, so that what a request stores
    is a list of values of the element type.
  - The field's rules judge the list: min 1 is at least one element, len 3
    exactly three.
  - each 'rules' gives the rules of every element that is not null, checks,
    transforms and a format alike, as on a field of the element type; their
    errors are at the element's path (tags[2]). The directives are the
    field's and are refused inside each, but for format, which is refused
    outside: the format of a typed list is its elements'.
  - A bare default is []; default '["a","b"]' is a JSON array, each element
    converted and judged by each at declaration.

"items", "[]$item", "" is always a list of objects made with entity item:
an object input is null (strictly, a "type" error), and an element that is
not an object is written as null (strictly, a "type" error at items[1]). A
bare default is [].

# Groups

"details", "{", "" opens a group and "details", "}", "" closes it: the
field writes an object whose fields are those declared between, read from
the same input level as the group itself. This is how flat rows become
nested JSON. The name on "}" is not checked against the group's
([Field.CloseName] keeps it); "}" takes no rules. Groups nest, at most
[MaxNesting] deep. A group takes only the directives req (a request must
send the group's object), rename, msg, doc, lazy, if, unless, since, until,
omitempty (left out when it writes {}), readonly, writeonly and from (its
fields are read from the object at that path of the server's data
instead).

# References

"owner", "$user", "" makes the field with the entity user: an object input
is made with it; a list input gives a list made element by element, the
elements that are not objects skipped, order kept; anything else is null
(strictly, a "type" error). A registry made with
[github.com/expose-go/expose/entity.SingleRefs] makes a $user one object in
responses too, as in requests: a list given to it is the server's error.
"owners", "[]$user", "" is always a list (see Typed lists). A name holding
white space is quoted: $'first name'.

References may name entities declared later, and an entity may refer to
itself: a reference is resolved when a call runs, to the entity exposed
under its name then, so that exposing a name again replaces the entity for
its references too, atomically. A reference that names no entity is
reported by [github.com/expose-go/expose/entity.Registry.Verify] and by
LoadFS.

A reference takes the directives req, a bare default (the entity made from
an empty input), secret (every field under it is secret), omitnil, merge
(see Directives), the cross-field rules (see Cross-field rules), and those
a group takes: rename, msg, doc, lazy, if, unless, since, until, omitempty,
readonly, writeonly and from (the object at that path is made). A []$name
also takes min, max, range (alias minmax) and len, which judge its count
of elements: "items", "[]$item", "min 1 | max 50". It takes no other rule:
the referenced entity's rules judge its fields.

# Unions

"payment", "$card|$invoice", "req | by 'method'" is one object made with
entity card or entity invoice ([Field.Variants]): two or more references,
"|" between them, no white space inside, each variant named once. The
directive by names the key that tells them apart: its value in the object
is the variant's name ("card"). In a file: payment  $card|$invoice  req | by 'method'.
"history", "[]$card|$invoice", "by 'method'" is a list of them, each
element told by its own key.

  - The key is no field of the variants (a variant that declares it is a
    declaration error, as is a union without by, or by on anything else).
    A response writes it first, with the variant's name, then the
    variant's fields, as the variant's entity writes them; it is written
    and read as by spells it, whatever the registry's key case.
  - Data whose key is missing or names no variant fails at the key
    (payment.method), code "in", its params listing the variants' names
    (never the value given): in a response the server's error. Every
    other failure is the variant's, at its path (payment.po_number).
  - A union takes the directives of a reference but for default, merge,
    from, immutable and the sources, and by: req, secret, omitnil,
    rename, msg, doc, lazy, if, unless, since, until, omitempty,
    readonly, writeonly, the cross-field rules, and on a list min, max,
    range and len.
  - A selection inside a union (Select "payment(method,last4)") applies
    to each variant that has the fields it names; the key is always
    written, and a name that no variant has is unknown.
  - A merge patch (entity.Entity.Patch) whose object keeps the key, or
    names none, merges into the variant the current value holds; one that
    names another variant replaces it whole, read as a request reads it.
  - Server data holds a union as an object (a map, raw JSON) with the key
    among its members, or as a Go value the variant reads (a struct
    holding an interface field, say) whose own fields include the key
    (a struct field tagged `json:"method"`).

# Rules

The third string of a field is its rules, separated by "|"; a rule is a
name followed by its arguments, separated by white space:

	num | rename 'number' | range 1 100

An argument that holds white space or "|", or that starts with a quote, is
quoted with ' or "; inside the quotes a doubled quote stands for one.
There are no backslash escapes, so that regular expressions are written as
they are:

	msg 'it''s too short' | regex '^a\d+$' | in "a b" 'c|d'

Rule names are case-insensitive and are never quoted. An empty rules string is no rules;
an empty rule (before, between or after bars: "num | | req") is an error.

Each rule is either a directive, which the compiler interprets itself, or a
check or transform registered in the registry's [rules.Set]: the built-in
ones below, or one of the program's own, registered with
[github.com/expose-go/expose/entity.Registry.RegisterRule] as a
[rules.Def]. A rule may be repeated; of default, rename, format and msg,
the last one counts. Rules that cannot apply to the field's type, or that
get the wrong number of arguments, are declaration errors.

# Directives

The directives, with their arguments and where they apply:

	none                all          no rule at all
	req                 values, $    refuses a null value (after default): code "required"
	default [value]     values, $    fills a null value before any check runs; a $ref takes
	                                 only a bare default (see Semantics)
	rename name         all          the output key, which requests read too; server data is
	                                 still read under the field's name
	secret              values, $    the value never appears in an error: the messages that
	                                 may describe it (in, regex, a program's rules) are "is
	                                 not valid", without params; those that quote no value
	                                 stay, and a msg names no value placeholder ({values})
	msg 'text'          all          the field's own message for any of its failures (below)
	lazy                all          written only when a call's selection names it
	if 'flag'…          all          written only in calls that set one of the flags
	unless 'flag'…      all          left out of calls that set one of the flags
	since 'v2'          all          written to calls of that version and later
	until 'v3'          all          written to calls before that version
	omitnil             values, $    the key is left out when the value is null (after default)
	omitempty           all          the key is left out when the value is null, "", 0, false,
	                                 [] or {} (a group: when it writes {})
	readonly            all          written by responses; never read nor checked from requests
	writeonly           all          read and checked from requests; never written by responses
	immutable           body values  set once: read from a request that creates as any field,
	                                 written by responses; a patch that changes or clears a
	                                 value the current value holds fails (code "immutable")
	from 'a.b.0.c'      all          reads the value at that path of the server's data, not
	                                 under the field's name (requests ignore it)
	merge               $            writes the referenced entity's keys into the object around
	                                 the field, not under its key
	each 'rules'        []T          the rules of every element of a typed list
	format name [args]  values       how the value is written (see Formats)
	unexpose            Extend       drops a field of the base: "mail", "", "unexpose"
	path ['name']       top values   a request reads it from the URL path's parameter (see Sources)
	query ['name']      top values   a request reads it from the query string
	header ['Name']     top values   a request reads it from a header
	cookie ['name']     top values   a request reads it from a cookie
	doc 'text'          all          the field's description, for schemas, docs and generated code
	example 'value'     values       an example value, converted and judged by the field's rules
	                                 as a default is
	required_if f v…    values, $    required when sibling f has one of the values v… (see
	                                 Cross-field rules)
	required_with f…    values, $    required when any of the siblings f… is present
	required_without f… values, $    required when none of them is: at least one of them
	excluded_with f…    values, $    absent when any of the siblings f… is present
	by 'key'            union        the key whose value, a variant's name, tells a union's
	                                 variant ($a|$b); required on a union (see Unions)

"values" are value fields (every type but groups and references, typed
lists included), "$" references, "all" groups too, "top values" value
fields at the top level of an entity, "body values" value fields a
request reads from its body (not readonly nor writeonly, itself or by a
group around it, nor a parameter).
The aliases are no and
not for none, required for req, def for default and rn for rename. No
registered rule may take a directive's name ([rules.Directive],
[rules.Reserved]). unexpose applies only in
the triples given to [github.com/expose-go/expose/entity.Registry.Extend],
which declares an entity as another one (its base) plus fields of its own,
minus those it unexposes; the .entity file form has no way to write an
extension.

msg 'text' replaces every message of the field's failures, in every
language: {field} in it is the field's input name (its declared name in
a response, but its key in an Object of the entity read by its output
keys; the key or parameter name a request reads it under), and
each param of the failing rule or of the field's other rules ({min},
{max}, {values}…, as their
[rules.Def.Params] name them; {type} and {got} of a type error, {limit} of
the depth limit) is its value; {{ and }} write braces. A placeholder that
names nothing is a declaration error. On a group or a reference, msg says
the message of its own failures only (a reference's req and type, the depth
limit), not its fields'.

lazy, if, unless, since and until shape each call: see Per-call shaping.

# Sources

A request reads each field from one place. A value field at the top level
of an entity may say where: path reads the URL path's parameter (Go 1.22
patterns' {name} wildcards, or a router's, through
[github.com/expose-go/expose/entity.PathValues]), query the query string,
header a header (case-insensitively), cookie a cookie. The argument is the
name the request gives it; by default the field's key (a header field's
declared name). A field named X-… is a header field, which header may only
name. Every other field is read from the body when the request has one
(JSON, or a form), else from the query string. A body never supplies a
source field, nor a header field, so that a client cannot give one that a
proxy sets. A source value is text, read strictly like any other ("abc"
for a number path field is a "type" error naming the parameter). Server
data (Make of a map, a struct, raw JSON) reads every field by its name;
the sources are a request's.

# Cross-field rules

required_if 'delivery' 'ship', required_with 'a' 'b'…, required_without
'a' 'b'… and excluded_with 'a' 'b'… judge a field with its siblings, the
fields of the same object, named by their declared names:

	required_if 'other' 'v'…   required when other has one of the values
	required_with 'a' 'b'…     required when any of a, b… is present
	required_without 'a' 'b'…  required when none of a, b… is: at least one of them
	excluded_with 'a' 'b'…     absent when any of a, b… is present

Present means written and not null, after defaults: a sibling that
omitnil or omitempty leaves out is absent. They are judged on requests and
responses alike, once the object's fields are made; a field whose value
failed (a "type" error, req, a check, in it or in one of its elements)
and so is absent (null, or a list its failing elements left empty that
omitempty leaves out) is not reported again by a rule that requires it:
one error per field and cause; a rule that names a
field a call does not read (a writeonly one in a response, one its flags
hide, one its selection leaves out of a response) is not judged there. A
name declared in several version ranges is judged as the call's range
declares it. required_if compares the values of a value field, each
converted as a default of that field is (and formatted, as the field writes
it). A rule on a group, or naming one, is a declaration error (a group is
always written, so always present), as is one naming no sibling or the
field itself; an object takes at most 16 of them. Their failures have the
codes of their names, with the params other and values (required_if) or
others. The rules name siblings, never a value of the field itself, so
that a secret field's keep their messages; a required_if names the values
of its sibling ("is required when delivery is ship"), but for a secret
sibling, or under a secret $ref where every field is secret, whose values
it never quotes: params other only, "is required for the value delivery
has".

# Built-in rules

The checks and transforms every registry has (package [rules] holds their
exact definitions; [rules.Builtin]):

	min n             string, number, float, list, none   string: at least n characters (runes);
	                                                      number: at least n; list: at least n elements
	max n             same                                at most n
	range a b         same                                between a and b, bounds included (alias minmax)
	len n             string, list, object, none          exactly n characters, elements or keys
	in a b …          string, number, float, bool,        one of the values, compared after their
	                  date, none                          conversion to the field's type
	regex 'pattern'   string, none                        matches the RE2 pattern, unanchored (^…$
	                                                      to match all of it); at most 1024 bytes
	url               string, none                        an absolute http or https URL with a host
	email             string, none                        an address like name@example.com
	date              string, none                        a calendar date, YYYY-MM-DD or YYYY/M/D
	time              string, none                        a time of day, H:mm or HH:mm
	num               string, number, float, none         a number or a numeric string (alias number)
	float             string, number, float, none         the same
	bool              string, bool, number, none          a value the bool conversion reads (alias boolean)
	timestamp         string, date, number, float, none   a value the date conversion reads (alias datetime)
	trim              string, none                        transform: removes white space at both ends
	lower, upper      string, none                        transforms: lower or upper case, rune by rune

The bounds of min, max and range may be negative or have decimals; a
length must reach the bound rounded inward (min 2.5 on a string means 3).
range 5 1 is a declaration error, and so are bounds of one field that no
value meets (min 5 | max 3, range 1 5 | min 6: [rules.BoundsConflict]),
compared exactly, as decimals. in takes at least one value; a value that
does not convert to the field's type (in 1.5 on a number field) is a
declaration error; on none, a value matches the string of its text and the
number or boolean it spells.

# Semantics

  - Every check judges the value the field writes, after its conversion,
    so that a success means every rule holds on the output: on a string
    field, timestamp judges the text (the number 12 becomes "12", which is
    no date, and fails). On a field of the very type they check (num on
    number, bool on bool, timestamp on date) these rules cannot fail, since
    the conversion guarantees them: they are accepted and not run.
    Checks of stage [rules.Input] (a program's own rules that judge the
    input itself) see the input value as it came.
  - Every check but req skips a null value: it judges only values that are
    there. An input that does not convert is null: write req to refuse
    "abc" on a number field.
  - default fills a null value (absent, null, or not converted) before any
    check runs, wherever it stands in the rules; req then refuses what is
    still null. A bare default is the type's zero: "", 0, 0.0, false, the
    Unix epoch, [], {}; null on none (which req would refuse on every call:
    a declaration error); [] on a typed list or a list of references; on a
    reference, the entity made from an empty input (on a reference to the
    entity itself, a declaration error). A default's text goes through the
    field's own conversion (default 0.10 is "0.10" on a string, 0.1 on a
    float); on list and object it is JSON (default '[1,2]'); on none a
    quoted default is a string and an unquoted one is read as a JSON
    literal when it is one (default 12 is the number 12). A default that
    does not convert, or that fails the field's own checks, is a
    declaration error; it is transformed and formatted like any value.
  - Transforms (trim, lower, upper and a program's own, [rules.Def.Transform])
    change the value after its conversion and before every check, wherever
    they stand in the rules, in the order written, and the output holds the
    changed value, which the checks judge:
    "mail", "string", "trim | lower | email" writes ann@example.com for an
    input of Ann@Example.COM with spaces around it. On none they change
    strings only.
  - On none, checks judge the value found at run time; a check that cannot
    apply to it fails (email on a number: "must be a string").
  - A format says how the value is written, after its checks: checks judge
    the value, not its text (format fixed 2 | min 2 refuses 1.999).
  - omitnil and omitempty judge what is written, after default: a value
    that does not convert is null, and left out.
  - readonly and writeonly make one entity serve both directions: a
    writeonly req is required of requests only, a readonly req of responses
    only. No response writes a writeonly field; a request neither reads
    nor checks a readonly one (a client may send back what it got). A
    field cannot be both.
  - from reads any kind of server data: maps, structs (by json name at
    each step), raw JSON; a request ignores it and reads the field's key,
    in the shape a response writes. Its path is names and list indexes separated by
    dots ('user.address.0.city'); "\." is a dot inside a name; an empty
    step is a declaration error. A path that finds nothing reads as absent.
    The field's own name is then no input key (DenyUnknown refuses it).
  - merge reads the field's own input (an object; anything else merges
    nothing, a "type" error when strict) and writes the referenced entity's
    keys in place of the field. Two keys written to one object (the
    parent's and a merged one, or two merged entities') are a declaration
    error, and so are an entity that merges itself through any chain and
    merge on a []$name (a list has no keys to write in place).
  - Output keys are compared as a client reads them: two fields writing the
    same key (after rename and the key case) are a declaration error,
    unless their since/until ranges are disjoint.

# Formats

format name [args] says how a value field is written, after its
conversion, transforms and checks. The built-in formats:

	rfc1123      date    "Thu, 17 May 2018 14:49:34 GMT", in UTC
	unix         date    seconds since the Unix epoch, a JSON integer (1526568574)
	unixms       date    milliseconds since the Unix epoch, a JSON integer
	date         date    "2018-05-17"
	'layout'     date    a Go time layout in quotes, in UTC: format '2006-01-02 15:04'
	fixed n      float   a JSON number with exactly n decimals, 0 to 17: fixed 2 writes 1.50

A program adds its own with
[github.com/expose-go/expose/entity.Registry.RegisterFormat], for the types
it names; its arguments are the words after the name. On a typed list the
format is the elements': "seen", "[]date", "each 'format unix'". A format
that cannot apply to the field's type (format unix on a string), an
unknown name, or bad arguments are declaration errors. Format names are
case-insensitive; a quoted argument that names no format is a layout.

# Per-call shaping

One declaration serves every caller: per call, a selection picks fields,
flags show or hide them, and a version picks those of that version. A
field the call leaves out is not written at all, its key included.

  - lazy: the field is written only when the call's selection names it
    (not by "*"): bulky fields stay out of the default response. It
    shapes responses only: a request reads, checks and keeps a lazy field
    as any other (the Object of MakeRequest holds it, Bind stores it, a
    merge patch sets it).
  - if 'admin' 'staff': written only in calls that set one of the flags;
    unless 'guest': left out of calls that set one of them. Flags are
    declared by the program
    ([github.com/expose-go/expose/entity.Registry.DeclareFlags]) and set
    per call ([github.com/expose-go/expose/entity.With]). A flag the
    program has not declared is a declaration error, so that a misspelt
    flag never shows or hides a field: Expose reports it once the registry
    declares flags, its check and LoadFS always.
  - since 'v2' (from v2, included) and until 'v3' (before v3), against the
    call's version ([github.com/expose-go/expose/entity.Version]). A version
    is one to four numbers separated by dots, with an optional leading v
    (v2, 2.1, v2.10), compared number by number (v2.10 is after v2.9; v2 is
    v2.0); another text is a declaration error. A call without a version
    writes every field; two fields may write one key when their ranges are
    disjoint, and a call without a version writes the one of the latest
    range.

They apply to value fields, groups and references, and to the groups and
referenced entities under them, at any depth. A request reads and checks
every field its flags and version show, whatever its selection, so that a
client can never skip a req; a field they hide is neither read nor
checked. A selection is the text a
client sends ([github.com/expose-go/expose/entity.Select]), in the grammar
of Google APIs' partial responses, which [ParseSelection] reads:

	a,b        fields a and b
	a/b        field b of a (a group, a reference or a list of references)
	a(b,c)     fields b and c of a
	*          every field of its level but the lazy ones

Names are output names (after rename and the key case). A selection holds
at most [MaxSelectionLen] bytes and nests at most [MaxSelectionDepth]
levels.

# Conversions

What each type reads, from Go values and from JSON alike (a JSON number is
a float64, as encoding/json reads it into an any):

	string  string, []byte (as UTF-8)   as is
	        integers, floats            as JavaScript and encoding/json write them: 1000000,
	                                    0.1, 1e+21, never 1e+06; uint64 exact; -0 is "-0";
	                                    NaN and ±Inf are null
	        json.Number                 an integer as its text without leading zeros ("-007" is
	                                    "-7"); another number as its float ("1.50" is "1.5",
	                                    "1e5" is "100000"); text that is no number ("NaN",
	                                    "+1", "0x10", ".5"), or beyond float64's range, is null
	        bool                        "true", "false"
	        time.Time                   RFC 3339 in UTC; a year outside 0000–9999 is null
	        objects, lists, the rest    null
	number  integers (named types too)  as is; a uint64 above MaxInt64 is null
	        floats                      truncated toward zero (12.7 is 12, -3.9 is -3); NaN,
	                                    ±Inf and values outside int64 are null
	        numeric strings             -?digits[.digits], truncated the same way ("007" is 7,
	                                    "-3.9" is -3); "1.2.3", ".", "abc", "1e5" are null
	        json.Number                 its exact decimal value, exponent included, truncated
	                                    toward zero (1e5 is 100000), never read through float64;
	                                    outside int64 null
	        booleans, lists, objects    null
	float   numbers, numeric strings    a float64, -0 kept; NaN, ±Inf and numbers beyond
	        (exponents too),            float64's range are null
	        json.Number
	        booleans, lists, objects    null
	bool    bool                        as is
	        numbers                     1 is true, 0 is false, others null
	        strings                     true, false, on, off, 1, 0, in any case; others null
	date    time.Time                   in UTC
	        strings                     RFC 3339 (T and Z in either case), 2006-01-02 and
	                                    2006/01/02 (months and days of 1 or 2 digits),
	                                    2006-01-02 15:04:05 with an optional fraction of a
	                                    second; no zone means UTC
	        numbers                     Unix milliseconds, as in JavaScript
	        a year outside 0000–9999    null (RFC 3339 has four-digit years)
	list    any slice or array          written with encoding/json's rules for its contents
	        but []byte
	object  a map with string keys,     written with encoding/json's rules (keys sorted)
	        an entity's *Object
	none    anything                    written with encoding/json's rules; a value JSON cannot
	                                    hold (NaN, ±Inf, a channel, a cycle) is a field error,
	                                    code "json" or "depth"

A []byte is text everywhere but on none, where it is written as
encoding/json writes it (base64). A json.Number is a number on every field,
never a string: text that is no number is null ("true" is no bool). A
pointer, in a struct field or a map value, is followed to what it points
to; a nil pointer is null. On list and none a nil slice is null, as
encoding/json writes it; on a reference it is an empty list. Whatever the
input, every byte written is valid JSON: strings are escaped exactly as
encoding/json escapes them (HTML-safe, U+2028 and U+2029 escaped, invalid
UTF-8 replaced with U+FFFD).

# The file form

An .entity file holds one or more entities: its name, the methods its
requests must use if any, and its fields between braces, one a line:

	# users.entity
	user {
	  id       number  num | rename 'number'
	  name     string  req
	  details  {
	    age   number  num
	    mail  string  email
	  }
	  code     string  default 'unknown'
	}

	users POST {  # the methods a request must use, as the triples' leading "POST"
	  offset        number   default 0
	  'first name'  string   req  # a name holding white space is quoted
	  boss          $user
	  list          []$user
	  info          {        rename details
	    age  number  range 0 150
	  }
	}

The grammar, a line at a time (white space is spaces, tabs and any other
white space rune; NL is the end of a line):

	file    = { entity | comment | NL } .
	entity  = name [ methods ] "{" NL { field | group } "}" NL .
	methods = method { ( white space | "|" | "," ) method } .
	field   = name type [ rules ] NL .
	group   = name "{" [ rules ] NL { field | group } "}" [ name ] NL .
	name    = word | quoted .
	type    = word | "$" quoted | "[]$" quoted .
	rules   = the rest of the line, read as a triple's rules string .

A word is a run of anything but white space that starts with no quote and
no "#"; quoted text is written in ' or " with the quote doubled inside, as
in rules strings, and ends on its line. A name holding white space, or
starting with a quote or "#", is quoted; so is an entity name after "$".
The "}" closing a group may repeat the group's name ("} info"), as a
triple's closing "}" names it; the "}" closing an entity takes nothing.
Each field line is read as the triple of its name, type and rules would
be, by the same parser, so that a file means exactly what its triples mean
([Entity.Triples] gives them), and a declaration of triples is written as
a file by [PrintEntities]: only a name or an argument holding a line
break, a rule name starting with "#", or an unquoted argument starting
with "#", has no file form. Indentation and
blank lines mean nothing.

A "#" that starts a token outside quotes (at the start of a line, after
white space, or after a "|" in rules) starts a comment that runs to the end
of the line: a#b and '#fff' are no comments. Comments are kept
([File.Comments]). The comment lines directly above an entity's first line
or a field's line, with no blank line between, are its description
([Entity.Doc], [Field.Doc]): the text of each line without its "#" and one
space after it. A blank line detaches them, and a comment after a
declaration, on the declaration's line, is no description; so a header
comment at the top of a file needs a blank line under it. A field's
description is what doc 'text' says in triples (an entity's has no triple
form). Tools read descriptions: the schemas, the docs page, the doc comments
"expose gen" writes.

[File.Print] writes the canonical form, which "expose fmt" prints: two
spaces of indentation a level, the names, types and rules of an entity's
or a group's fields in aligned columns, one blank line between entities
and where the source had blank lines, comments where they were, a
description directly above what it describes. Reading what it prints gives
the same entities, descriptions and comments.

# Errors

Every error of a declaration is reported, not only the first: an error in
one triple or line hides none in another, and an unknown type hides none of
its field's other errors. The errors come as an [ErrorList] of [*Error],
sorted by position, each naming the entity and the field and, inside a
rules string or a line, pointing at the byte with a caret:

	dsl: entity "user", field "age" (triple 4, rules): unknown rule "rnge" (did you mean "range"?)
	    num | rnge 1 5
	          ^

An error in a file starts with its place (file:line:col) and shows the
line with its number:

	users.entity:4:25: entity "user", field "age": unknown rule "rnge" (did you mean "range"?)
	     4 |     age   number  num | rnge 1 5
	       |                         ^

A misspelt type, rule, directive, format or entity name is given the
nearest known one. Positions ([Pos]) are cheap to carry; their line and
column are rendered only when an error is printed. The compiler adds its
own errors to the parser's ([ParsePartial], [ParseFilePartial], [NewError]),
so that a declaration's errors of syntax, of types, of rules and of
references come in one list.
*/
package dsl
