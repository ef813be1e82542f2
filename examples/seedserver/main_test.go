package main

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestMain gives the tests a table of testRows users, where the server
// has 100,000: enough for a page and a stream, filled in a blink even under
// the race detector. (The test of streaming at flat memory fills its own.)
func TestMain(m *testing.M) {
	dbRows = testRows
	os.Exit(m.Run())
}

const testRows = 1000

const seedJSON = `{"offset":0,"limit":2,"list":[{"number":12,"name":"maachang","details":{"age":40,"mail":"maachang@maachang.com"},"code":"unknown"},{"number":21,"name":"saito","details":{"age":27,"mail":"saito@maachang.com"},"code":"unknown"}]}`

func TestAPITest(t *testing.T) {
	if err := checkEntities(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		method     string
		path       string
		wantStatus int
		wantBody   string
	}{
		{"seed payload", "GET", "/api/test", 200, seedJSON},
		{"wrong method", "POST", "/api/test", 405, ""},
		{"unknown path", "GET", "/api/nope", 404, ""},
	}
	mux := newMux()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
			if rec.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d", rec.Code, tt.wantStatus)
			}
			if tt.wantBody == "" {
				return
			}
			if got := rec.Body.String(); got != tt.wantBody {
				t.Errorf("body:\n got %s\nwant %s", got, tt.wantBody)
			}
			if len(rec.Body.Bytes()) != 227 {
				t.Errorf("body is %d bytes, want the seed's 227", rec.Body.Len())
			}
			wantCT := "application/json; charset=utf-8"
			if tt.wantStatus >= 400 {
				wantCT = "application/problem+json"
			}
			if ct := rec.Header().Get("Content-Type"); ct != wantCT {
				t.Errorf("Content-Type = %q, want %q", ct, wantCT)
			}
		})
	}
}

func TestCreateUser(t *testing.T) {
	if err := checkEntities(); err != nil {
		t.Fatal(err)
	}
	const (
		jsonType = "application/json"
		formType = "application/x-www-form-urlencoded"
	)
	tests := []struct {
		name        string
		method      string
		target      string
		contentType string
		body        string
		requestID   string
		language    string // Accept-Language
		wantStatus  int
		wantBody    string
		wantAllow   string
		wantFields  []string // the paths of the field errors, in order
	}{
		{name: "created from JSON", method: "POST", target: "/api/users", contentType: jsonType,
			body: `{"name":"Ann","mail":"ann@example.com","age":"30","role":"admin"}`, requestID: "r-1",
			wantStatus: 201, wantBody: `{"name":"Ann","mail":"ann@example.com","age":30,"requestId":"r-1"}`},
		{name: "created from a form", method: "POST", target: "/api/users?age=99", contentType: formType,
			body:       url.Values{"name": {"Bo"}, "mail": {"bo@example.com"}, "age": {"41"}}.Encode(),
			wantStatus: 201, wantBody: `{"name":"Bo","mail":"bo@example.com","age":41,"requestId":null}`},
		{name: "with a body, the query is not read", method: "POST", target: "/api/users?name=Query", contentType: jsonType,
			body:       `{"name":"Body","mail":"b@example.com"}`,
			wantStatus: 201, wantBody: `{"name":"Body","mail":"b@example.com","age":null,"requestId":null}`},
		{name: "every field error", method: "POST", target: "/api/users", contentType: jsonType,
			body: `{"mail":"not-an-address","age":151}`, requestID: "r-2",
			wantStatus: 400,
			wantBody: `{"type":"/problems/validation","title":"Validation failed","status":400,"detail":"3 fields failed validation","errors":[` +
				`{"pointer":"/name","path":"name","outputPath":"name","code":"required","message":"is required"},` +
				`{"pointer":"/mail","path":"mail","outputPath":"mail","code":"email","message":"must be a valid email address"},` +
				`{"pointer":"/age","path":"age","outputPath":"age","code":"range","params":{"max":150,"min":0},"message":"must be between 0 and 150"}]}`,
			wantFields: []string{"name", "mail", "age"}},
		{name: "an empty POST", method: "POST", target: "/api/users",
			wantStatus: 400, wantFields: []string{"name", "mail"}},
		{name: "field errors in Japanese", method: "POST", target: "/api/users", contentType: jsonType,
			body: `{"name":"Ann","age":"x"}`, language: "ja-JP,ja;q=0.9,en;q=0.8",
			wantStatus: 400,
			wantBody: `{"type":"/problems/validation","title":"入力内容に誤りがあります","status":400,"detail":"2件の項目に誤りがあります","errors":[` +
				`{"pointer":"/mail","path":"mail","outputPath":"mail","code":"required","message":"必須です"},` +
				`{"pointer":"/age","path":"age","outputPath":"age","code":"type","params":{"got":"string","type":"number"},"message":"整数で指定してください（文字列が送られました）"}]}`,
			wantFields: []string{"mail", "age"}},
		{name: "a strict type error", method: "POST", target: "/api/users", contentType: formType,
			body:       url.Values{"name": {"Bo"}, "mail": {"bo@example.com"}, "age": {"3.5"}}.Encode(),
			wantStatus: 400, wantFields: []string{"age"}},
		{name: "JSON sent as a form (curl -d)", method: "POST", target: "/api/users", contentType: formType,
			body: `{"name":"Ann","mail":"ann@example.com"}`, wantStatus: 415},
		{name: "invalid JSON", method: "POST", target: "/api/users", contentType: jsonType, body: `{"name":`,
			wantStatus: 400, wantBody: `{"type":"/problems/invalid-json","title":"Invalid JSON","status":400,"detail":"the body is not valid JSON: at byte 8, unexpected end of input","offset":8}`},
		{name: "a JSON array", method: "POST", target: "/api/users", contentType: jsonType, body: `[{"name":"Ann"}]`,
			wantStatus: 400},
		{name: "a body over 1 MiB", method: "POST", target: "/api/users", contentType: jsonType,
			body:       `{"name":"` + strings.Repeat("a", 1<<20) + `"}`,
			wantStatus: 413, wantBody: `{"type":"about:blank","title":"Request Entity Too Large","status":413,"detail":"the request body is larger than the limit of 1048576 bytes"}`},
		// GET lists generated users (users_test.go); other methods get a
		// JSON 405 naming both.
		{name: "PUT", method: "PUT", target: "/api/users", contentType: jsonType, body: `{"name":"Ann"}`,
			wantStatus: 405, wantAllow: "GET, HEAD, POST",
			wantBody: `{"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"method PUT is not allowed; use GET, HEAD, POST"}`},
		{name: "DELETE", method: "DELETE", target: "/api/users",
			wantStatus: 405, wantAllow: "GET, HEAD, POST"},
	}
	mux := newMux()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			if tt.requestID != "" {
				req.Header.Set("X-Request-Id", tt.requestID)
			}
			if tt.language != "" {
				req.Header.Set("Accept-Language", tt.language)
			}
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d (body %s)", rec.Code, tt.wantStatus, rec.Body)
			}
			if tt.wantBody != "" && rec.Body.String() != tt.wantBody {
				t.Errorf("body:\n got %s\nwant %s", rec.Body, tt.wantBody)
			}
			wantCT := "application/json; charset=utf-8"
			if tt.wantStatus >= 400 {
				wantCT = "application/problem+json"
			}
			if ct := rec.Header().Get("Content-Type"); ct != wantCT {
				t.Errorf("Content-Type = %q, want %q", ct, wantCT)
			}
			if cl := rec.Header().Get("Content-Length"); cl != strconv.Itoa(rec.Body.Len()) {
				t.Errorf("Content-Length = %q, body is %d bytes", cl, rec.Body.Len())
			}
			if allow := rec.Header().Get("Allow"); allow != tt.wantAllow {
				t.Errorf("Allow = %q, want %q", allow, tt.wantAllow)
			}
			var body struct {
				Status int `json:"status"`
				Errors []struct {
					Path string `json:"path"`
				} `json:"errors"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatalf("body %s: %v", rec.Body, err)
			}
			if tt.wantStatus >= 400 && body.Status != tt.wantStatus {
				t.Errorf("problem status %d, want %d", body.Status, tt.wantStatus)
			}
			var paths []string
			for _, f := range body.Errors {
				paths = append(paths, f.Path)
			}
			if strings.Join(paths, ",") != strings.Join(tt.wantFields, ",") {
				t.Errorf("field errors at %q, want %q", paths, tt.wantFields)
			}
		})
	}
}
