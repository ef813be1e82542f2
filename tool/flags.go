package tool

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/expose-go/expose/entity"
)

// errHelp is returned when -h or --help is given: the command's help is
// printed and the exit status is 0.
var errHelp = errors.New("help")

// files is a repeatable -f flag: each value a file or a glob; and the
// flags (-flags) the registry that loads them declares.
type files struct {
	names []string
	flags names
}

func (f *files) String() string     { return strings.Join(f.names, " ") }
func (f *files) Set(s string) error { f.names = append(f.names, s); return nil }

// names is a repeatable flag of comma-separated names.
type names []string

func (n *names) String() string { return strings.Join(*n, ",") }
func (n *names) Set(s string) error {
	for _, name := range strings.Split(s, ",") {
		if name = strings.TrimSpace(name); name != "" {
			*n = append(*n, name)
		}
	}
	return nil
}

// newFlags returns the flag set of command name with its repeatable -f,
// and -flags for a command that loads the files into a registry.
func newFlags(name string, loads bool) (*flag.FlagSet, *files) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fl := &files{}
	fs.Var(fl, "f", "an .entity file or glob (repeatable)")
	if loads {
		fs.Var(&fl.flags, "flags", "flags the files' if and unless name, comma separated (repeatable)")
	}
	return fs, fl
}

// parse parses flags and positional arguments in any order, as
// "make -f a.entity user --pretty" is written.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

// expand returns the files that the names and globs match, each once, in
// the order given. A glob that matches nothing is an error.
func expand(names []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		matches := []string{n}
		if _, err := os.Stat(n); err != nil && strings.ContainsAny(n, "*?[") { // a file of that very name is no glob
			var err error
			matches, err = filepath.Glob(n)
			if err != nil {
				return nil, fmt.Errorf("%w: bad glob %q: %v", errUsage, n, err)
			}
			if len(matches) == 0 {
				return nil, fmt.Errorf("%q matches no file", n)
			}
		}
		for _, m := range matches {
			if key := filepath.Clean(m); !seen[key] { // ./u.entity is u.entity
				seen[key] = true
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// load reads the files fl names, and those of more, and loads them into
// env's registry, after declaring fl's flags in it, with entity.LoadFS.
// On errors it prints every one of them, each with its place and its
// caret, and returns errReported.
func load(env *env, fl *files, more ...string) (*entity.Registry, error) {
	names := append(fl.names[:len(fl.names):len(fl.names)], more...)
	if len(names) == 0 {
		return nil, fmt.Errorf("%w: no file: give .entity files with -f FILE", errUsage)
	}
	paths, err := expand(names)
	if err != nil {
		return nil, err
	}
	fsys := fileFS{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		fsys[p] = b
	}
	reg := env.reg
	if len(fl.flags) > 0 {
		if err := reg.DeclareFlags(fl.flags...); err != nil {
			return nil, fmt.Errorf("%w: -flags: %v", errUsage, err)
		}
	}
	if err := reg.LoadFS(fsys, paths...); err != nil {
		var le *entity.LoadError
		if !errors.As(err, &le) {
			return nil, err
		}
		for _, e := range le.Errors {
			fmt.Fprintln(env.stderr, e.Error())
		}
		fmt.Fprintf(env.stderr, "%d %s\n", len(le.Errors), plural(len(le.Errors), "error", "errors"))
		return nil, errReported
	}
	return reg, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// fileFS serves the files named on the command line to entity.LoadFS under
// the names they were given, so that errors name them as the user wrote
// them ("../schemas/a.entity" too, which an os.DirFS cannot serve). Its
// Glob matches a name exactly: the command line's globs are expanded
// before.
type fileFS map[string][]byte

func (f fileFS) Open(name string) (fs.File, error) {
	b, ok := f[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &memFile{name: name, r: strings.NewReader(string(b)), size: int64(len(b))}, nil
}

func (f fileFS) ReadFile(name string) ([]byte, error) {
	b, ok := f[name]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return append([]byte(nil), b...), nil
}

func (f fileFS) Glob(pattern string) ([]string, error) {
	if _, ok := f[pattern]; ok {
		return []string{pattern}, nil
	}
	var out []string
	for name := range f {
		if ok, err := filepath.Match(pattern, name); err != nil {
			return nil, err
		} else if ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out, nil
}

// memFile is an open file of a fileFS.
type memFile struct {
	name string
	r    *strings.Reader
	size int64
}

func (m *memFile) Read(p []byte) (int, error) { return m.r.Read(p) }
func (m *memFile) Close() error               { return nil }
func (m *memFile) Stat() (fs.FileInfo, error) { return memInfo{m}, nil }

type memInfo struct{ f *memFile }

func (i memInfo) Name() string       { return filepath.Base(i.f.name) }
func (i memInfo) Size() int64        { return i.f.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
