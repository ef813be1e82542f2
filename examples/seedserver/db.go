package main

import (
	"context"
	"database/sql"
	"fmt"
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

// dbRows is how many users the database holds.
const dbRows = 100

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

// readUsers reads every row, in id order.
func readUsers(ctx context.Context, db *sql.DB) ([]dbUser, error) {
	rows, err := db.QueryContext(ctx, `SELECT id, name, age, mail, created_at FROM users ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	users := make([]dbUser, 0, dbRows)
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
// {"count":…,"list":[…]}, each row shaped by the dbuser entity; 500, saying
// nothing of the cause, when the database fails.
func dbUsersHandler(db func() (*sql.DB, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
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
	return readUsers(ctx, d)
}

// dbUsersOut is the input of dbUsersEntity: a struct holding a slice of
// structs, read field by field.
type dbUsersOut struct {
	Count int      `json:"count"`
	List  []dbUser `json:"list"`
}
