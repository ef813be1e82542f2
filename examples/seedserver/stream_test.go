package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

// TestDBUsersStream checks GET /api/db/users?stream=1: every row of the
// table, as the dbuser entity makes each, in a JSON array (or NDJSON),
// shaped by ?fields=; a bad selection answers 400 before any row.
func TestDBUsersStream(t *testing.T) {
	if err := checkEntities(); err != nil {
		t.Fatal(err)
	}
	list := make([]any, testRows)
	for i := range list {
		list[i] = dbRow(i)
	}
	tests := []struct {
		name, target string
		fields       string // the selection the rows are made with
		ndjson       bool
	}{
		{"JSON array", "/api/db/users?stream=1", "", false},
		{"NDJSON", "/api/db/users?stream=ndjson", "", true},
		{"a selection without created_at", "/api/db/users?stream=1&fields=id,name", "id,name", false},
		{"a selection with created_at", "/api/db/users?stream=ndjson&fields=createdAt,details(mail)", "createdAt,details(mail)", true},
	}
	mux := newMux()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(mux, tt.target)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			if tt.name == "JSON array" {
				entitytest.CheckResponse(t, rec, dbUserEntity, http.StatusOK)
			}
			want, err := dbUserEntity.MakeJSON(list, entity.Select(tt.fields))
			if err != nil {
				t.Fatal(err)
			}
			ct := "application/json; charset=utf-8"
			if tt.ndjson {
				ct = "application/x-ndjson"
				var elems []json.RawMessage
				if err := json.Unmarshal(want, &elems); err != nil {
					t.Fatal(err)
				}
				var b []byte
				for _, el := range elems {
					b = append(append(b, el...), '\n')
				}
				want = b
			}
			if got := rec.Header().Get("Content-Type"); got != ct {
				t.Errorf("Content-Type %q, want %q", got, ct)
			}
			if !bytes.Equal(rec.Body.Bytes(), want) {
				t.Errorf("body:\n got %.300s\nwant %.300s", rec.Body, want)
			}
		})
	}
	t.Run("a bad selection", func(t *testing.T) {
		rec := get(mux, "/api/db/users?stream=1&fields=list(id")
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `"type":"/problems/invalid-fields"`) {
			t.Errorf("status %d, body %s; want the 400 of a bad selection", rec.Code, rec.Body)
		}
	})
}
