package main

import (
	"encoding/json"
	"errors"
	"log"
	"net/http"
	"strconv"
	"strings"
)

// The twins the load test compares the entity endpoints with:
//
//   - /naive/test and /naive/users?n=… give the same JSON the way a Go
//     developer writes it without the library: build a map[string]any by
//     hand with the same conversions and checks (id string → int, the mail
//     check, code's default, the rename to "number", the details group),
//     then encoding/json.Marshal. Maps marshal with sorted keys, so the
//     bytes differ from the entity's; the values decode equal.
//   - /const/test answers the precomputed bytes of /api/test with the same
//     headers: the ceiling a handler that shapes on every request can
//     approach.

// naiveTest answers GET /naive/test: the seed payload, shaped by hand.
func naiveTest(w http.ResponseWriter, r *http.Request) {
	naiveWrite(w, seedUsers)
}

// naiveListUsers answers GET /naive/users?n=…: n generated users, shaped by
// hand, or 400 when n is missing, not an integer or outside 1..10000
// (stricter than usersQueryEntity, whose number conversion truncates "2.5"
// to 2; the load test asks for 100).
func naiveListUsers(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.URL.Query().Get("n"))
	if err != nil || n < 1 || n > maxUsers {
		naiveError(w, http.StatusBadRequest, "n must be an integer between 1 and 10000")
		return
	}
	naiveWrite(w, generatedUsers(n))
}

// naiveWrite shapes in with naiveUsers and writes it with encoding/json.
func naiveWrite(w http.ResponseWriter, in map[string]any) {
	out, err := naiveUsers(in)
	if err != nil {
		naiveError(w, http.StatusBadRequest, err.Error())
		return
	}
	b, err := json.Marshal(out)
	if err != nil {
		log.Printf("naive: %v", err)
		naiveError(w, http.StatusInternalServerError, "internal server error")
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

func naiveError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]string{"error": msg})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// naiveUsers is the users entity written by hand: offset and limit numbers
// defaulting to 0, list made user by user (elements that are not objects
// skipped).
func naiveUsers(in map[string]any) (map[string]any, error) {
	offset, _ := naiveInt(in["offset"])
	limit, _ := naiveInt(in["limit"])
	out := map[string]any{"offset": offset, "limit": limit, "list": nil}
	if l, ok := in["list"].([]any); ok {
		list := make([]any, 0, len(l))
		for i, e := range l {
			u, ok := e.(map[string]any)
			if !ok {
				continue
			}
			m, err := naiveUser(u)
			if err != nil {
				return nil, errors.New("list[" + strconv.Itoa(i) + "]." + err.Error())
			}
			list = append(list, m)
		}
		out["list"] = list
	}
	return out, nil
}

// naiveUser is the user entity written by hand: id, a number renamed
// "number" (null when it does not convert); name required; age a number and
// mail an address, grouped under details; code defaulting to "unknown".
func naiveUser(u map[string]any) (map[string]any, error) {
	var id, age, mail any
	if n, ok := naiveInt(u["id"]); ok {
		id = n
	}
	name, ok := u["name"].(string)
	if !ok {
		return nil, errors.New("name: is required")
	}
	if n, ok := naiveInt(u["age"]); ok {
		age = n
	}
	if s, ok := u["mail"].(string); ok {
		if !naiveEmail(s) {
			return nil, errors.New("details.mail: must be a valid email address")
		}
		mail = s
	}
	code := "unknown"
	if s, ok := u["code"].(string); ok {
		code = s
	}
	return map[string]any{
		"number":  id,
		"name":    name,
		"details": map[string]any{"age": age, "mail": mail},
		"code":    code,
	}, nil
}

// naiveInt converts the number types the generated data holds and numeric
// strings, as a hand-written handler would.
func naiveInt(v any) (int64, bool) {
	switch v := v.(type) {
	case int:
		return int64(v), true
	case int64:
		return v, true
	case float64:
		return int64(v), true
	case string:
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// naiveEmail is the hand check of the email rule: one @, a non-empty local
// part, a domain of non-empty dot-separated labels with at least one dot.
func naiveEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || strings.ContainsRune(domain, '@') || !strings.Contains(domain, ".") {
		return false
	}
	for label := range strings.SplitSeq(domain, ".") {
		if label == "" {
			return false
		}
	}
	return true
}

// constHandler answers body, precomputed, with the headers entity.Write
// sends: the ceiling for /api/test.
func constHandler(body []byte) http.HandlerFunc {
	ct := []string{"application/json; charset=utf-8"}
	cl := []string{strconv.Itoa(len(body))}
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["Content-Type"] = ct
		h["Content-Length"] = cl
		w.WriteHeader(http.StatusOK)
		w.Write(body)
	}
}
