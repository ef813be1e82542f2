package main

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
	"log"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/expose-go/expose/entity"
	_ "modernc.org/sqlite" // the "sqlite" driver, pure Go
)

// GET /api/db/users: rows of an SQLite database (modernc.org/sqlite, in
// memory, created and filled at start-up) shaped through the dbuser entity.
// Each row is scanned into a dbUser as database/sql gives its columns —
// int64, []byte, time.Time — and the entity converts them as the DSL says.
// The plain answer is a page, the first dbPage rows, made whole in memory;
// ?stream=1 streams every row of the table from its *sql.Rows, one at a
// time, at flat memory (streamUsers).

// dbRows is how many users the database holds: enough that the table,
// streamed, is megabytes of JSON (about 13 MB), while the server holds a
// chunk of it at a time. The -db-rows flag sets it.
var dbRows = 100_000

// dbPage is how many rows the plain GET /api/db/users answers with: a
// response made whole is held whole in memory.
const dbPage = 100

// dbEpoch is the created_at of the first row; each next one is an hour and
// a second later.
var dbEpoch = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// dbUser is one row of the users table, read by the dbuser entity through its
// json tags.
type dbUser struct {
	ID        int64     `json:"id"`
	Name      []byte    `json:"name"` // TEXT, scanned as bytes: the entity writes it as a string
	Age       int64     `json:"age"`
	Mail      string    `json:"mail"`
	CreatedAt time.Time `json:"created_at"` // DATETIME, parsed by the driver
}

// usersDB opens the database once; main calls it at start-up so that an
// error stops the server before it listens.
var usersDB = sync.OnceValues(func() (*sql.DB, error) { return openUsersDB(dbRows) })

// openUsersDB creates an in-memory database with n users.
func openUsersDB(n int) (*sql.DB, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	// Each connection to ":memory:" is a database of its own: keep exactly
	// one, open for good.
	db.SetMaxOpenConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if err := fillUsersDB(context.Background(), db, n); err != nil {
		db.Close()
		return nil, fmt.Errorf("seedserver: filling the users database: %w", err)
	}
	return db, nil
}

func fillUsersDB(ctx context.Context, db *sql.DB, n int) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE users (
		id         INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		age        INTEGER NOT NULL,
		mail       TEXT NOT NULL,
		created_at DATETIME NOT NULL
	)`); err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO users (id, name, age, mail, created_at) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i := range n {
		u := dbRow(i)
		if _, err := stmt.ExecContext(ctx, u.ID, string(u.Name), u.Age, u.Mail, u.CreatedAt); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// dbRow returns row i as it is inserted.
func dbRow(i int) dbUser {
	name := firstNames[i%len(firstNames)] + "-" + strconv.Itoa(i+1)
	return dbUser{
		ID:        int64(i + 1),
		Name:      []byte(name),
		Age:       int64(20 + i%50),
		Mail:      name + "@example.com",
		CreatedAt: dbEpoch.Add(time.Duration(i) * (time.Hour + time.Second)),
	}
}

// readUsers reads the first n rows, in id order.
func readUsers(ctx context.Context, db *sql.DB, n int) ([]dbUser, error) {
	rows, err := db.QueryContext(ctx, `SELECT id, name, age, mail, created_at FROM users ORDER BY id LIMIT ?`, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	users := make([]dbUser, 0, min(n, 1024))
	for rows.Next() {
		var u dbUser
		// Scanning into *[]byte copies the TEXT's bytes; created_at comes
		// back as a time.Time because the column is declared DATETIME.
		if err := rows.Scan(&u.ID, &u.Name, &u.Age, &u.Mail, &u.CreatedAt); err != nil {
			return nil, err
		}
		users = append(users, u)
	}
	return users, rows.Err()
}

// dbUsersHandler answers GET /api/db/users from the database db returns:
// {"count":…,"list":[…]}, the first dbPage rows, each shaped by the dbuser
// entity; 500, saying nothing of the cause, when the database fails. With
// ?stream=1 (or ?stream=ndjson) it streams the whole table instead: see
// streamUsers.
func dbUsersHandler(db func() (*sql.DB, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("stream") {
			streamUsers(w, r, db)
			return
		}
		users, err := queryUsers(r.Context(), db)
		if err != nil {
			log.Printf("GET /api/db/users: %v", err)
			entity.WriteError(w, err)
			return
		}
		if err := dbUsersEntity.Write(w, dbUsersOut{Count: len(users), List: users}); err != nil {
			log.Printf("GET /api/db/users: %v", err)
		}
	}
}

// queryUsers reads every row of the database db returns.
func queryUsers(ctx context.Context, db func() (*sql.DB, error)) ([]dbUser, error) {
	d, err := db()
	if err != nil {
		return nil, err
	}
	return readUsers(ctx, d, dbPage)
}

// dbUsersOut is the input of dbUsersEntity: a struct holding a slice of
// structs, read field by field.
type dbUsersOut struct {
	Count int      `json:"count"`
	List  []dbUser `json:"list"`
}

// streamUsers answers GET /api/db/users?stream=1 with every row of the
// table as a JSON array of dbuser objects (?stream=ndjson: one a line,
// application/x-ndjson), each row scanned from the *sql.Rows and written
// as it comes: the server holds a chunk of the response at a time, however
// long the table. ?fields= selects each object's fields (as Select reads
// them), and a column no selected field writes is not read at all: with
// fields=id,name, created_at (a DATETIME the driver parses) stays in the
// database.
//
// A row that fails its entity, or the database failing midway, ends the
// response without its closing "]" (NDJSON: with a problem line), since
// the status went out with the first rows; the error is logged.
func streamUsers(w http.ResponseWriter, r *http.Request, db func() (*sql.DB, error)) {
	d, err := db()
	if err != nil {
		log.Printf("GET /api/db/users?stream: %v", err)
		entity.WriteError(w, err)
		return
	}
	if r.URL.Query().Get("stream") == "ndjson" {
		w.Header().Set("Content-Type", "application/x-ndjson") // EncodeSeq writes a line per row
	}
	opts := []entity.Option{
		entity.Select(r.URL.Query().Get("fields")),
		entity.WithContext(r.Context()), // the stream stops when the client goes
		entity.Lang(dbUserEntity.Registry().RequestLang(r)),
	}
	// createdAt is among the paths checkEntities checks at start-up.
	rows := userRows(r.Context(), d, dbUserEntity.Selected("createdAt", opts...))
	if err := entity.EncodeSeq(w, dbUserEntity, rows, opts...); err != nil {
		log.Printf("GET /api/db/users?stream: %v", err)
	}
}

// userRows returns the rows of the users table as a sequence, in id order,
// read one at a time into one dbUser: each is written before the next is
// scanned, so that the name can be the driver's own bytes (sql.RawBytes,
// valid until the next row) and nothing of a row outlives it. createdAt
// says whether to read the created_at column; the rows are closed when
// the sequence ends or its consumer stops.
func userRows(ctx context.Context, db *sql.DB, createdAt bool) iter.Seq2[*dbUser, error] {
	return func(yield func(*dbUser, error) bool) {
		query := `SELECT id, name, age, mail FROM users ORDER BY id`
		if createdAt {
			query = `SELECT id, name, age, mail, created_at FROM users ORDER BY id`
		}
		rows, err := db.QueryContext(ctx, query)
		if err != nil {
			yield(nil, err)
			return
		}
		defer rows.Close()
		var u dbUser
		var name sql.RawBytes
		dest := []any{&u.ID, &name, &u.Age, &u.Mail}
		if createdAt {
			dest = append(dest, &u.CreatedAt)
		}
		for rows.Next() {
			if err := rows.Scan(dest...); err != nil {
				yield(nil, err)
				return
			}
			u.Name = name
			if !yield(&u, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(nil, err)
		}
	}
}
