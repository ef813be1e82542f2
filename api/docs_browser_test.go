package api_test

import (
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

var screenshots = flag.String("screenshots", "", "write the docs page's screenshots to this directory (default: a temporary one)")

// pageFacts is what the browser test reads of the page it loaded.
type pageFacts struct {
	ScrollWidth, BodyScrollWidth, InnerWidth int
	Text                                     string
	URLs                                     [][2]string // [where, url]: every src, <link href>, url() and @import
	Viewport                                 string
	Wide                                     []string // elements that reach past the viewport's right edge
}

// factsJS collects the page's facts.
const factsJS = `(() => {
  const urls = [];
  document.querySelectorAll('[src]').forEach(e => urls.push(['src', e.getAttribute('src')]));
  document.querySelectorAll('link[href]').forEach(e => urls.push(['link href', e.getAttribute('href')]));
  const css = [...document.querySelectorAll('style')].map(s => s.textContent)
    .concat([...document.querySelectorAll('[style]')].map(e => e.getAttribute('style'))).join('\n');
  for (const m of css.matchAll(/url\(\s*['"]?([^'")\s]*)/g)) urls.push(['url()', m[1]]);
  for (const m of css.matchAll(/@import\s+(?:url\(\s*)?['"]?([^'");\s]*)/g)) urls.push(['@import', m[1]]);
  const vp = document.querySelector('meta[name=viewport]');
  const wide = [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .slice(0, 5).map(e => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ': ' + e.textContent.slice(0, 40));
  return {ScrollWidth: document.documentElement.scrollWidth, BodyScrollWidth: document.body.scrollWidth,
    InnerWidth: window.innerWidth, Text: document.body.innerText, URLs: urls,
    Viewport: vp ? vp.getAttribute('content') : '', Wide: wide};
})()`

// absoluteURL matches a URL that names a scheme or a host.
var absoluteURL = regexp.MustCompile(`^(?:[A-Za-z][A-Za-z0-9+.-]*:|//|\\\\)`)

// TestDocsPageInBrowser loads the shop's docs page from a test server in
// headless Chromium at 1280 and 390 CSS pixels wide, takes screenshots of
// both, and checks: no console error, no request outside the server, no
// absolute URL in any src, <link href>, url() or @import, every
// operation's path on the page, a stream said to be one, a viewport meta
// tag, and no horizontal
// scroll at 390 pixels.
func TestDocsPageInBrowser(t *testing.T) {
	mux, _ := shopAPI(t, api.Config{})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	b := startBrowser(t)
	dir := *screenshots
	if dir == "" {
		dir = t.TempDir()
	}
	for _, vp := range []struct {
		name          string
		width, height int
	}{{"1280", 1280, 900}, {"390", 390, 844}} {
		t.Run(vp.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			start, err := b.open(ctx, srv.URL+"/docs", vp.width, vp.height)
			if err != nil {
				t.Fatal(err)
			}
			shots := []string{filepath.Join(dir, "docs-"+vp.name+".png"), filepath.Join(dir, "docs-"+vp.name+"-order.png")}
			if err := b.screenshot(ctx, shots[0]); err != nil {
				t.Fatal(err)
			}
			var scrolled bool
			if err := b.eval(ctx, `(() => { const e = document.getElementById('op-postOrders'); if (!e) return false; e.scrollIntoView(); return true; })()`, &scrolled); err != nil || !scrolled {
				t.Fatalf("no section of POST /orders to scroll to (%v)", err)
			}
			if err := b.screenshot(ctx, shots[1]); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshots: %s", strings.Join(shots, ", "))

			var facts pageFacts
			if err := b.eval(ctx, factsJS, &facts); err != nil {
				t.Fatal(err)
			}
			checkEvents(t, b, start, srv.URL)
			for _, u := range facts.URLs {
				if absoluteURL.MatchString(strings.TrimSpace(u[1])) {
					t.Errorf("an absolute URL in a %s: %s", u[0], u[1])
				}
			}
			for _, p := range shopPaths {
				if !strings.Contains(facts.Text, p) {
					t.Errorf("the page does not show the path %s", p)
				}
			}
			if !strings.Contains(facts.Text, "a stream of customer") {
				t.Error("the page does not say that GET /customers/export answers a stream")
			}
			if !strings.Contains(facts.Viewport, "width=device-width") {
				t.Errorf("viewport meta %q", facts.Viewport)
			}
			if facts.InnerWidth != vp.width {
				t.Errorf("the viewport is %d pixels wide, want %d", facts.InnerWidth, vp.width)
			}
			if facts.ScrollWidth > facts.InnerWidth || facts.BodyScrollWidth > facts.InnerWidth {
				t.Errorf("the page scrolls horizontally: %d and %d pixels wide in a viewport of %d; wide elements: %q",
					facts.ScrollWidth, facts.BodyScrollWidth, facts.InnerWidth, facts.Wide)
			}
		})
	}
}

// checkEvents fails t for each console error, exception and request
// outside origin that the browser reported since start.
func checkEvents(t *testing.T, b *browser, start int, origin string) {
	t.Helper()
	for _, e := range b.eventsSince(start) {
		switch e.Method {
		case "Runtime.consoleAPICalled":
			var p struct {
				Type string
				Args []struct{ Value any }
			}
			jsonDecode(t, e.Params, &p)
			if p.Type == "error" || p.Type == "assert" {
				t.Errorf("console %s: %v", p.Type, p.Args)
			}
		case "Runtime.exceptionThrown":
			t.Errorf("an exception: %s", e.Params)
		case "Log.entryAdded":
			var p struct {
				Entry struct{ Level, Text, URL string }
			}
			jsonDecode(t, e.Params, &p)
			if p.Entry.Level == "error" {
				t.Errorf("console error: %s (%s)", p.Entry.Text, p.Entry.URL)
			}
		case "Network.requestWillBeSent":
			var p struct{ Request struct{ URL string } }
			jsonDecode(t, e.Params, &p)
			if u := p.Request.URL; !strings.HasPrefix(u, origin+"/") && !strings.HasPrefix(u, "data:") {
				t.Errorf("a request outside the server: %s", u)
			}
		}
	}
}

// TestUnionDocsPageInBrowser: the docs page says a union is one of its
// variants, linked, and which key tells them, in a real browser, with no
// console error and nothing loaded from elsewhere.
func TestUnionDocsPageInBrowser(t *testing.T) {
	reg := entity.NewRegistry()
	reg.MustExpose("card", "token", "string", "writeonly | req", "last4", "string", "readonly")
	reg.MustExpose("invoice", "po_number", "string", "req | min 1 | max 40")
	orders := reg.MustExpose("order", "payment", "$card|$invoice", "req | by 'method'")
	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "unions", Version: "1"}, Registry: reg})
	a.HandleFunc("POST /orders", func(http.ResponseWriter, *http.Request) {}, api.Operation{Request: orders, Response: orders, Status: http.StatusCreated})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	b := startBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start, err := b.open(ctx, srv.URL+"/docs", 1280, 900)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.screenshot(ctx, filepath.Join(t.TempDir(), "union.png")); err != nil {
		t.Fatal(err)
	}
	var facts pageFacts
	if err := b.eval(ctx, factsJS, &facts); err != nil {
		t.Fatal(err)
	}
	checkEvents(t, b, start, srv.URL)
	for _, want := range []string{"one of card.by_method or invoice.by_method", "the variant is told by the value of its key method"} {
		if !strings.Contains(facts.Text, want) {
			t.Errorf("the page does not say %q", want)
		}
	}
}
