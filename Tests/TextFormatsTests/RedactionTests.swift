import TextFormats
import Testing

/// Issue 24: the history kept `tasks sync --remote postgresql://user:SECRET@host/db` as typed.
@Suite("Redaction: no password kept or shown")
struct RedactionTests {
    @Test(arguments: [
        ("postgresql://user:SECRET@host/db", "postgresql://user:***@host/db"),
        ("--remote=postgres://me:SECRET@db.example.com:5432/tasks?sslmode=require", "--remote=postgres://me:***@db.example.com:5432/tasks?sslmode=require"),
        ("https://me:SE@CR/ET@dav.example.com/cal/", "https://me:***@dav.example.com/cal/"),
        ("postgresql://host/db?user=me&password=SECRET&sslmode=require", "postgresql://host/db?user=me&password=***&sslmode=require"),
        ("host=db password=SECRET dbname=tasks", "host=db password=*** dbname=tasks"),
        ("host=db PASSWORD = 'SE CR\\'ET' dbname=tasks", "host=db PASSWORD = *** dbname=tasks"),
        ("password=", "password=***"),
    ])
    func passwordsAreMasked(text: String, masked: String) {
        #expect(Redaction.passwords(in: text) == masked)
        #expect(!Redaction.passwords(in: text).contains("SECRET") && !Redaction.passwords(in: text).contains("SE CR"))
    }

    @Test(arguments: [
        "postgresql://me@host/db", "https://dav.example.com/cal/", "Buy milk", "mailto:me@example.com", "passwords are hard",
        "user:pass but no url", "a://b", "", "한국어 🍽️", "mypassword=x",
    ])
    func textWithoutAPasswordIsUnchanged(text: String) {
        #expect(Redaction.passwords(in: text) == text)
    }
}
