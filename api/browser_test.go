package api_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// A headless Chromium driven through the DevTools protocol over a pipe
// (--remote-debugging-pipe: commands on fd 3, answers and events on fd 4,
// each a JSON message ended by a NUL byte): the lightest driver there is,
// nothing but the browser and the standard library.

// browserEnv says that the browser tests must run: test.sh sets it once it
// has installed Chromium, so that a missing browser fails there rather
// than skipping.
const browserEnv = "EXPOSE_BROWSER_TESTS"

// chromiumPath returns the browser to run: $EXPOSE_CHROMIUM, else the
// first of Debian's names found on PATH.
func chromiumPath() (string, error) {
	if p := os.Getenv("EXPOSE_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium on PATH (Debian: apt-get install chromium)")
}

// cdpMessage is a message of the protocol: a command's answer (ID), or an
// event (Method).
type cdpMessage struct {
	ID        int64           `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *cdpError       `json:"error,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
}

type cdpError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// browser is a running Chromium with one page.
type browser struct {
	cmd     *exec.Cmd
	out     *os.File // commands, to the browser's fd 3
	session string

	mu      sync.Mutex
	nextID  int64
	waiting map[int64]chan cdpMessage
	events  []cdpMessage
	notify  chan struct{} // a new event
	done    chan struct{} // the browser's output ended
}

// startBrowser starts Chromium headless, as the machine's notes ask (no
// background networking, a new profile), with one blank page attached.
func startBrowser(t *testing.T) *browser {
	t.Helper()
	bin, err := chromiumPath()
	if err != nil {
		if os.Getenv(browserEnv) != "" {
			t.Fatalf("%v; %s is set: the browser tests must run", err, browserEnv)
		}
		t.Skipf("%v: set %s to fail instead", err, browserEnv)
	}
	cmdRead, out, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	in, cmdWrite, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-default-apps", "--disable-extensions", "--disable-dev-shm-usage", "--mute-audio",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-pipe", "about:blank")
	cmd.ExtraFiles = []*os.File{cmdRead, cmdWrite} // fd 3 and fd 4
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	cmdRead.Close()
	cmdWrite.Close()
	b := &browser{cmd: cmd, out: out, waiting: map[int64]chan cdpMessage{}, notify: make(chan struct{}, 1), done: make(chan struct{})}
	go b.read(in)
	t.Cleanup(func() {
		b.call(context.Background(), "Browser.close", nil, nil)
		out.Close()
		waited := make(chan struct{})
		go func() { cmd.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-waited
		}
	})

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var target struct{ TargetID string }
	if err := b.call(ctx, "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		t.Fatal(err)
	}
	var attached struct{ SessionID string }
	if err := b.call(ctx, "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached); err != nil {
		t.Fatal(err)
	}
	b.session = attached.SessionID
	for _, domain := range []string{"Page", "Runtime", "Log", "Network"} {
		if err := b.call(ctx, domain+".enable", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// read reads the browser's messages until its output ends.
func (b *browser) read(in *os.File) {
	defer close(b.done)
	r := bufio.NewReader(in)
	for {
		raw, err := r.ReadBytes(0)
		if err != nil {
			return
		}
		var m cdpMessage
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch := b.waiting[m.ID]; ch != nil {
				ch <- m
				delete(b.waiting, m.ID)
			}
		} else {
			b.events = append(b.events, m)
			select {
			case b.notify <- struct{}{}:
			default:
			}
		}
		b.mu.Unlock()
	}
}

// call sends a command to the page's session (to the browser before one
// is attached) and decodes its result into result.
func (b *browser) call(ctx context.Context, method string, params, result any) error {
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan cdpMessage, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if b.session != "" && method != "Browser.close" {
		msg["sessionId"] = b.session
	}
	raw, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if _, err := b.out.Write(append(raw, 0)); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-b.done:
		return fmt.Errorf("%s: the browser quit", method)
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// eventsSince returns the events received after the first n.
func (b *browser) eventsSince(n int) []cdpMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]cdpMessage(nil), b.events[n:]...)
}

func (b *browser) eventCount() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.events)
}

// open sets the viewport to width × height CSS pixels, loads url and
// waits for its load event; it returns the number of events before it,
// for eventsSince.
func (b *browser) open(ctx context.Context, url string, width, height int) (int, error) {
	if err := b.call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600,
	}, nil); err != nil {
		return 0, err
	}
	start := b.eventCount()
	var nav struct{ ErrorText string }
	if err := b.call(ctx, "Page.navigate", map[string]any{"url": url}, &nav); err != nil {
		return 0, err
	}
	if nav.ErrorText != "" {
		return 0, fmt.Errorf("Page.navigate %s: %s", url, nav.ErrorText)
	}
	for {
		for _, e := range b.eventsSince(start) {
			if e.Method == "Page.loadEventFired" {
				return start, nil
			}
		}
		select {
		case <-b.notify:
		case <-b.done:
			return 0, errors.New("the browser quit")
		case <-ctx.Done():
			return 0, fmt.Errorf("waiting for the load of %s: %w", url, ctx.Err())
		}
	}
}

// eval evaluates a JavaScript expression in the page and decodes its
// value into v.
func (b *browser) eval(ctx context.Context, expr string, v any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := b.call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res); err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return fmt.Errorf("evaluating %q: %s", expr, res.ExceptionDetails.Text)
	}
	return json.Unmarshal(res.Result.Value, v)
}

// screenshot writes a PNG of the viewport to path.
func (b *browser) screenshot(ctx context.Context, path string) error {
	var shot struct{ Data string }
	if err := b.call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		return err
	}
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, png, 0o644)
}

// jsonDecode decodes an event's params, failing the test on an error.
func jsonDecode(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
}
