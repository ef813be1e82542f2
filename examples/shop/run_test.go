package main

import (
	"bufio"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestRun: `go run ./shop -addr 127.0.0.1:0` (from examples/) serves the
// shop, whose store starts empty.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command")
	}
	cmd := exec.Command("go", "run", ".", "-addr", "127.0.0.1:0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // go run's child too
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	}()
	lines := bufio.NewScanner(stderr)
	var addr string
	for lines.Scan() {
		if _, a, ok := strings.Cut(lines.Text(), "shop listening on "); ok {
			addr = a
			break
		}
	}
	if addr == "" {
		t.Fatalf("the command never said where it listens: %v", lines.Err())
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	res, err := http.Get("http://" + addr + "/customers")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || string(body) != `{"offset":0,"limit":20,"list":[]}` {
		t.Errorf("GET /customers: %d %s, want 200 and an empty list", res.StatusCode, body)
	}
}
