package main

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSoak serves the example's routes on a loopback httptest.Server and
// sends a bounded number of requests from a few goroutines, within a
// bounded time. After a warm-up it measures the heap in use (after a full
// GC), and again at the end: pools, caches and per-type plans must have
// reached their steady size during the warm-up, so the heap may not grow
// by more than soakMaxGrowth. The goroutines must end too. It is skipped
// under -short.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("soak test: skipped under -short")
	}
	if err := checkEntities(); err != nil {
		t.Fatal(err)
	}
	// The handlers log the requests they refuse: thousands of lines here.
	logged := log.Writer()
	log.SetOutput(io.Discard)
	defer log.SetOutput(logged)
	const (
		total         = 20000
		warmup        = 2000
		workers       = 4
		soakMaxGrowth = 2 << 20
		budget        = 90 * time.Second
	)
	srv := httptest.NewServer(newMux()) // listens on 127.0.0.1 only
	defer srv.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: workers, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}

	// The routes this version of the example serves: each candidate is
	// kept when it is not a 404.
	var reqs []soakRequest
	for _, c := range soakCandidates {
		status, err := c.do(client, srv.URL)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if status == http.StatusNotFound {
			continue
		}
		if c.want != 0 && status != c.want {
			t.Errorf("%s: status %d, want %d", c, status, c.want)
		}
		reqs = append(reqs, c)
	}
	if len(reqs) == 0 {
		t.Fatal("no route answers")
	}
	t.Logf("routes: %v", reqs)

	goroutines := runtime.NumGoroutine()
	deadline := time.Now().Add(budget)
	var sent atomic.Int64
	send := func(n int64) {
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := sent.Add(1)
					if i > n || time.Now().After(deadline) {
						return
					}
					c := reqs[int(i)%len(reqs)]
					status, err := c.do(client, srv.URL)
					if err != nil {
						t.Errorf("%s: %v", c, err)
						return
					}
					if c.want != 0 && status != c.want {
						t.Errorf("%s: status %d, want %d", c, status, c.want)
						return
					}
				}
			}()
		}
		wg.Wait()
		sent.Store(min(sent.Load(), n))
	}

	start := time.Now()
	send(warmup)
	base := soakHeap()
	send(total)
	if t.Failed() {
		return
	}
	end := soakHeap()
	elapsed := time.Since(start)
	n := sent.Load()
	t.Logf("%d requests in %v (%.0f/s); HeapInuse after %d: %d bytes; after %d: %d bytes; growth %+d bytes; HeapObjects %d → %d",
		n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds(), warmup, base.HeapInuse, n, end.HeapInuse,
		int64(end.HeapInuse)-int64(base.HeapInuse), base.HeapObjects, end.HeapObjects)
	if n < total {
		t.Logf("stopped at the time budget of %v after %d of %d requests", budget, n, total)
	}
	if growth := int64(end.HeapInuse) - int64(base.HeapInuse); growth > soakMaxGrowth {
		t.Errorf("the heap grew by %d bytes between request %d and request %d (limit %d)", growth, warmup, n, soakMaxGrowth)
	}

	// Every goroutine of the requests ends once the connections close.
	tr.CloseIdleConnections()
	srv.CloseClientConnections()
	for wait := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > goroutines && time.Now().Before(wait); {
		time.Sleep(20 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > goroutines {
		t.Errorf("%d goroutines after the soak, %d before", g, goroutines)
	}
}

// soakHeap returns the memory statistics after a full collection.
func soakHeap() runtime.MemStats {
	runtime.GC()
	runtime.GC() // the second cycle frees what the first one's finalizers and pools let go
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms
}

// soakRequest is one request the soak sends, and the status it expects (0
// for any but 404).
type soakRequest struct {
	method, path, contentType, body string
	want                            int
}

func (c soakRequest) String() string { return c.method + " " + c.path }

// do sends the request and reads the whole response.
func (c soakRequest) do(client *http.Client, base string) (int, error) {
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req, err := http.NewRequest(c.method, base+c.path, body)
	if err != nil {
		return 0, err
	}
	if c.contentType != "" {
		req.Header.Set("Content-Type", c.contentType)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, fmt.Errorf("reading the body: %w", err)
	}
	return resp.StatusCode, nil
}

// soakCandidates are the requests sent to the routes the example may have:
// the seed's GET /api/test, and the others where present.
var soakCandidates = []soakRequest{
	{method: "GET", path: "/api/test", want: 200},
	{method: "GET", path: "/api/users"},
	{method: "GET", path: "/api/users?n=50"},
	{method: "POST", path: "/api/users", contentType: "application/json", body: `{"name":"Ann","mail":"ann@example.com","age":"30"}`, want: 201},
	{method: "POST", path: "/api/users", contentType: "application/json", body: `{"mail":"not-an-address","age":151}`, want: 400},
	{method: "POST", path: "/api/users", contentType: "application/json", body: `{"name":`, want: 400},
	{method: "POST", path: "/api/users", contentType: "application/x-www-form-urlencoded", body: "name=Bo&mail=bo%40example.com&age=41", want: 201},
	{method: "PUT", path: "/api/users", want: 405},
	{method: "GET", path: "/api/db/users"},
	{method: "GET", path: "/naive/test"},
	{method: "GET", path: "/naive/users"},
	{method: "GET", path: "/const/test"},
	{method: "POST", path: "/api/test", want: 405},
}
