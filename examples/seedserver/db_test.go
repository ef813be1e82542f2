package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"

	"github.com/expose-go/expose/entity/entitytest"
)

func TestDBUsers(t *testing.T) {
	if err := checkEntities(); err != nil {
		t.Fatal(err)
	}
	rec := get(newMux(), "/api/db/users")
	if !entitytest.CheckResponse(t, rec, dbUsersEntity, http.StatusOK) {
		return
	}

	// The rows went through SQLite and back: the response is what the
	// entity makes of the rows as they were inserted.
	rows := make([]dbUser, dbPage)
	for i := range rows {
		rows[i] = dbRow(i)
	}
	want, err := dbUsersEntity.MakeJSON(dbUsersOut{Count: dbPage, List: rows})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rec.Body.Bytes(), want) {
		t.Errorf("body:\n got %.300s\nwant %.300s", rec.Body, want)
	}

	var body struct {
		Count int
		List  []json.RawMessage
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if body.Count != dbPage || len(body.List) != dbPage {
		t.Fatalf("count %d with %d rows, want the first %d", body.Count, len(body.List), dbPage)
	}
	// int64 id and age as numbers, the []byte name as a string, the flat
	// row grouped, the DATETIME as RFC 3339 in UTC.
	for _, tt := range []struct {
		name string
		i    int
		want string
	}{
		{"first row", 0, `{"id":1,"name":"maachang-1","details":{"age":20,"mail":"maachang-1@example.com"},"createdAt":"2024-01-02T03:04:05Z"}`},
		{"last row", 99, `{"id":100,"name":"kobayashi-100","details":{"age":69,"mail":"kobayashi-100@example.com"},"createdAt":"2024-01-06T06:05:44Z"}`},
	} {
		if got := string(body.List[tt.i]); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

// TestReadUsers checks what the driver gives back: the types the entity
// converts ([]byte for TEXT, time.Time for DATETIME) with the values
// inserted.
func TestReadUsers(t *testing.T) {
	db, err := openUsersDB(3)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	users, err := readUsers(context.Background(), db, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(users) != 3 {
		t.Fatalf("%d rows, want 3", len(users))
	}
	for i, u := range users {
		w := dbRow(i)
		if u.ID != w.ID || !bytes.Equal(u.Name, w.Name) || u.Age != w.Age || u.Mail != w.Mail || !u.CreatedAt.Equal(w.CreatedAt) {
			t.Errorf("row %d = %+v, want %+v", i, u, w)
		}
	}
	if !bytes.Equal(users[0].Name, []byte("maachang-1")) {
		t.Errorf("name = %q", users[0].Name)
	}
	if want := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC); !users[0].CreatedAt.Equal(want) {
		t.Errorf("created_at = %v, want %v", users[0].CreatedAt, want)
	}
}

func TestDBUsersErrors(t *testing.T) {
	closed, err := openUsersDB(1)
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	tests := []struct {
		name string
		db   func() (*sql.DB, error)
	}{
		{"the database did not open", func() (*sql.DB, error) { return nil, errors.New("secret path /var/db") }},
		{"the database is closed", func() (*sql.DB, error) { return closed, nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			dbUsersHandler(tt.db)(rec, httptest.NewRequest("GET", "/api/db/users", nil))
			if !entitytest.CheckResponse(t, rec, dbUsersEntity, http.StatusInternalServerError) {
				return
			}
			// Every 500 carries an instance id of its own: the one the
			// registry's log hook gets.
			got := regexp.MustCompile(`,"instance":"urn:uuid:[0-9a-f-]{36}"`).ReplaceAllString(rec.Body.String(), "")
			if want := `{"type":"about:blank","title":"Internal Server Error","status":500,"detail":"the server could not answer the request"}`; got != want {
				t.Errorf("body %s, want %s", got, want)
			}
		})
	}
}
