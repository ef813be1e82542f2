package tool

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/expose-go/expose/dsl"
)

var fmtCmd = &command{
	name:  "fmt",
	usage: "[-w] [-l] [-f FILE]… FILE…",
	help: `Fmt prints the files in the canonical form: two spaces of indentation a
level, the names, types and rules of an entity's or a group's fields in aligned
columns, one blank line between entities, comments kept (those directly above
an entity or a field, its description, stay attached to it). A file with
syntax errors is left as it is and its errors are printed (exit status 1); so
is an error writing the standard output.

  -w             write the result to the file instead of printing it (only
                 files that change are written; a symbolic link's target is
                 written, and the link kept)
  -l             print the names of the files whose form is not canonical
`,
	run: runFmt,
}

func runFmt(env *env, args []string) error {
	fs, fl := newFlags("fmt", false)
	write := fs.Bool("w", false, "write the result to the file")
	list := fs.Bool("l", false, "list the files whose form is not canonical")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	names := append(fl.names, pos...)
	if len(names) == 0 {
		return fmt.Errorf("%w: no file", errUsage)
	}
	paths, err := expand(names)
	if err != nil {
		return err
	}
	failed := false
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil { // reported, and the other files still formatted
			fmt.Fprintln(env.stderr, err)
			failed = true
			continue
		}
		f, err := dsl.ParseFile(p, src)
		if err != nil {
			var l dsl.ErrorList
			if !errors.As(err, &l) {
				return err
			}
			for _, e := range l {
				fmt.Fprintln(env.stderr, e.Error())
			}
			failed = true
			continue
		}
		out, err := f.Print()
		if err != nil {
			return err
		}
		changed := !bytes.Equal(src, out)
		if *list && changed {
			if _, err := fmt.Fprintln(env.stdout, p); err != nil {
				return err // a cut list must not pass for a whole one
			}
		}
		switch {
		case *write:
			if changed {
				if err := writeFile(p, out); err != nil {
					fmt.Fprintln(env.stderr, err)
					failed = true
				}
			}
		case !*list:
			if _, err := env.stdout.Write(out); err != nil {
				return err // a cut file must not pass for a formatted one
			}
		}
	}
	if failed {
		return errReported
	}
	return nil
}

// writeFile replaces the file at path with data: written to a temporary
// file in the same directory, with the file's mode, then renamed over it,
// so that a failure never leaves the file cut short. A symbolic link is
// followed, as gofmt -w follows it: the file it points to is replaced and
// the link is kept. A file that does not exist is created with mode 0644
// (less the umask); if writing it fails, it is removed.
func writeFile(path string, data []byte) error {
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(path); lerr == nil {
			return fmt.Errorf("%s: a symbolic link to nothing", path) // not replaced by a file
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			os.Remove(path)
			return err
		}
		return nil
	}
	if err != nil {
		return err
	}
	path = real
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	perm := fi.Mode().Perm()
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, there is nothing to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
