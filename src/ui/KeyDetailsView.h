#pragma once

#include "models/NodeRef.h"
#include "models/ValueInspector.h"

#include <QTimer>
#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace keylens::models {
class ValueTableModel;
}

namespace keylens::ui {

class ElementDialog;

// One key: what the server says about it (type, encoding, TTL, memory, length) and its value. A
// string is shown as text, pretty JSON or hex (auto-detected, after decompressing gzip, zlib, LZ4,
// Snappy or zstd); a collection as a table that loads a page at a time as it scrolls, searchable on the server
// (HSCAN/SSCAN/ZSCAN MATCH), sorted sets by score either way.
class KeyDetailsView : public QWidget
{
    Q_OBJECT
public:
    explicit KeyDetailsView(models::ValueInspector* inspector, QWidget* parent = nullptr);

    // `memorySampled`: the scan found the server's memory figure of the key estimated from 5 elements
    // (KeyInfo::memorySampled); the Memory line says so, as the figure read again is estimated the same way.
    void showKey(const QByteArray& key, models::NodeRef node, bool memorySampled = false);
    // A key read from an RDB file: what the store keeps of it (its type, TTL, estimated memory, and its length when
    // the file gave one), and no value: there is no server to read it from, and the file's values are not kept.
    void showFileKey(const QByteArray& key, models::NodeRef node, const keyspace::KeyInfo& info,
                     std::optional<std::uint64_t> length);
    // The lint rules the key breaks, as the window knows them from the store.
    void showFindings(const QString& text);
    const QByteArray& key() const { return m_key; }
    bool isLoaded() const { return m_loaded; }

    // For tests and the screenshot: what is on screen.
    models::ValueTableModel* valueTable() const { return m_tableModel; }
    QTableView* valueView() const { return m_table; }
    QLineEdit* elementSearch() const { return m_search; }
    QComboBox* scoreOrder() const { return m_order; }
    QString tableStatus() const;
    QString valueText() const;
    QString fieldText(const QString& field) const;

    // Editing (KeyDetailsEditing.cpp). Every change goes through ValueInspector::requestEdit, carries what was read,
    // and comes back applied, refused or as a conflict with a diff.
    QPushButton* editButton() const { return m_editButton; }
    QPushButton* saveButton() const { return m_saveButton; }
    QPushButton* addButton() const { return m_addButton; }
    QPushButton* editElementButton() const { return m_editElementButton; }
    QPushButton* removeButton() const { return m_removeButton; }
    QPlainTextEdit* valueEditor() const { return m_text; }
    QString editStatus() const;
    // The connection's database: the default of a rename or duplicate.
    void setDatabase(int database) { m_database = database; }
    // A read-only connection: every edit control is disabled (and says why), not refused at Save.
    void setReadOnly(bool readOnly);
    // The key shown is gone from the server (an edit found it deleted or renamed): the pane says so and turns
    // read-only until another key (or this one again) is shown.
    bool isKeyGone() const { return m_keyGone; }
    void setTtl();
    void renameKey();
    void duplicateKey();

Q_SIGNALS:
    void editFinished();                                                   // an edit came back (see editStatus())
    void loaded();                                                         // the overview arrived (or failed)
    void lengthKnown(keylens::models::NodeRef node, std::uint64_t length); // STRLEN or element count

private:
    enum class Mode { Auto, Text, Json, Hex };
    void takeOverview(const models::ValueInspector::Overview& overview);
    void showString();
    void updateTableStatus();
    void prepareTableControls(keyspace::KeyType type);
    void applyQuery();
    inspect::ValueQuery queryFromControls() const;
    void goToEnd();
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showTimeLeft();
    void showTitle(const QByteArray& key, models::NodeRef node); // and forgets the key shown before
    // Editing (KeyDetailsEditing.cpp).
    QWidget* createEditBar();
    void updateEditControls();
    void setEditStatus(const QString& text);
    void startStringEdit();
    void saveString(bool overwrite = false);
    void cancelStringEdit();
    void addElement();
    void editElement();
    // The element dialog, open until the server wrote its edit (see ElementDialog::setSend).
    void runElementDialog(const inspect::ValueRow* existing);
    void removeElement();
    void takeEdit(const models::ValueInspector::Edit& edit);
    void request(const edit::KeyEdit& change);
    const inspect::ValueRow* selectedRow() const;

    models::ValueInspector* m_inspector;
    models::ValueTableModel* m_tableModel;
    QByteArray m_key;
    models::NodeRef m_node;
    bool m_loaded = false;
    models::ValueInspector::Overview m_overview;
    std::int64_t m_expiresAtMs = keyspace::NoExpiry;
    QTimer m_ttlTick;

    QLabel* m_title;
    QFormLayout* m_form;
    QLabel* m_type;
    QLabel* m_encoding;
    QLabel* m_ttl;
    QLabel* m_memory;
    QLabel* m_length;
    QLabel* m_findings;
    QLabel* m_problems;
    QStackedWidget* m_valuePages;
    QComboBox* m_mode;
    QLabel* m_valueInfo;
    QPlainTextEdit* m_text;
    QLineEdit* m_search;
    QComboBox* m_order;
    QTimer m_searchDelay; // a search starts when typing pauses, not on every keystroke
    QTableView* m_table;
    QLabel* m_tableStatus;
    QLabel* m_message;

    bool m_editingString = false;
    bool m_readOnly = false;
    bool m_keyGone = false;
    bool m_fromFile = false; // showFileKey(): nothing to read or write
    bool m_memorySampled = false;
    int m_database = 0;
    std::uint64_t m_editRequest = 0;
    std::optional<QByteArray> m_unsaved; // the edited string while it waits for the server
    QByteArray m_renamedTo;              // the name the pane followed a rename to, until it shows a key again
    QLabel* m_editStatus = nullptr;
    ElementDialog* m_elementDialog = nullptr; // while one is open
    QPushButton* m_editButton = nullptr;
    QPushButton* m_saveButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_addButton = nullptr;
    QPushButton* m_editElementButton = nullptr;
    QPushButton* m_removeButton = nullptr;
    QToolButton* m_keyActions = nullptr;
};

} // namespace keylens::ui
