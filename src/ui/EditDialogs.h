#pragma once

#include "edit/KeyEdit.h"
#include "inspect/KeyReader.h"

#include <QDialog>

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace keylens::ui {

// Bytes in a text field: as they are when they are printable UTF-8, else escaped the way redis-cli shows them
// ("\xff"), with the field's "Escaped" box ticked so that they are read back byte for byte.
class BytesField
{
public:
    BytesField(QLineEdit* line, QCheckBox* escaped);
    void setBytes(const QByteArray& bytes);
    // The bytes typed; nothing when an escaped text does not parse.
    std::optional<QByteArray> bytes() const;

private:
    QLineEdit* m_line;
    QCheckBox* m_escaped;
};

// Adds or edits one element of a collection: a hash field and value, a list element (and where it goes), a set
// member, a sorted-set member and score, a stream entry's fields. The edit it makes carries what was read, so a
// change on the server since is a conflict, not an overwrite.
class ElementDialog : public QDialog
{
    Q_OBJECT
public:
    // `existing`: the element to edit (with its position for a list), or null to add one; `selected` for a list's
    // "before/after the selected element".
    ElementDialog(const QByteArray& key, keyspace::KeyType type, const inspect::ValueRow* existing,
                  const inspect::ValueRow* selected, QWidget* parent = nullptr);
    // The edit, or nothing (with a message shown) when a field does not parse.
    std::optional<edit::KeyEdit> change();
    // Given a way to send the edit, Add (Save) sends it and the dialog stays open until the server answered:
    // written(), and it closes; refused(), and what was typed is still there beside why, to change and send again.
    void setSend(std::function<void(const edit::KeyEdit&)> send);
    void written();
    // `again`: the same dialog may send another edit (not when the key itself is gone).
    void refused(const QString& why, bool again);
    bool isWaiting() const { return m_waiting; }
    QString problem() const;

    QLineEdit* firstField() const { return m_first; }
    QLineEdit* secondField() const { return m_second; }
    void accept() override; // only with fields that parse

private:
    std::function<void(const edit::KeyEdit&)> m_send;
    bool m_waiting = false;
    QPushButton* m_ok = nullptr;
    QByteArray m_key;
    keyspace::KeyType m_type;
    std::optional<inspect::ValueRow> m_existing;
    std::optional<inspect::ValueRow> m_selected;
    QLineEdit* m_first = nullptr;  // hash field, set/zset member, list element, stream id
    QLineEdit* m_second = nullptr; // hash value, zset score, stream fields
    QCheckBox* m_escaped;
    QComboBox* m_position = nullptr; // lists
    QLabel* m_problem;
};

// A key's new name (rename, duplicate), and optionally another database.
class KeyNameDialog : public QDialog
{
    Q_OBJECT
public:
    KeyNameDialog(const QString& title, const QByteArray& key, int database, QWidget* parent = nullptr);
    std::optional<QByteArray> name() const;
    int database() const;
    QLineEdit* nameField() const { return m_name; }

private:
    QLineEdit* m_name;
    QCheckBox* m_escaped;
    QSpinBox* m_database;
};

// A new key of any type, with a TTL.
class NewKeyDialog : public QDialog
{
    Q_OBJECT
public:
    explicit NewKeyDialog(const QByteArray& prefix, QWidget* parent = nullptr);
    std::optional<edit::KeyEdit> change();

    QLineEdit* nameField() const { return m_name; }
    QComboBox* typeField() const { return m_type; }
    QLineEdit* ttlField() const { return m_ttl; }
    QPlainTextEdit* valueField() const { return m_value; }
    void accept() override; // only with fields that parse

private:
    void explainType();

    QLineEdit* m_name;
    QCheckBox* m_escaped;
    QComboBox* m_type;
    QLineEdit* m_ttl;
    QPlainTextEdit* m_value;
    QLabel* m_hint;
    QLabel* m_problem;
};

} // namespace keylens::ui
