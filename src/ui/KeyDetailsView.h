#pragma once

#include "keyspace/Keyspace.h"
#include "models/ValueInspector.h"

#include <QTimer>
#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QStackedWidget;
class QTableView;

namespace keylens::models {
class ValueTableModel;
}

namespace keylens::ui {

// One key: what the server says about it (type, encoding, TTL, memory, length) and its value. A
// string is shown as text, pretty JSON or hex (auto-detected, after decompressing gzip, zlib, LZ4,
// Snappy or zstd); a collection as a table that loads a page at a time as it scrolls, searchable on the server
// (HSCAN/SSCAN/ZSCAN MATCH), sorted sets by score either way.
class KeyDetailsView : public QWidget
{
    Q_OBJECT
public:
    explicit KeyDetailsView(models::ValueInspector* inspector, QWidget* parent = nullptr);

    void showKey(const QByteArray& key, keyspace::NodeId node);
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

Q_SIGNALS:
    void loaded();                                                 // the overview arrived (or failed)
    void lengthKnown(keyspace::NodeId node, std::uint64_t length); // STRLEN or element count

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

    models::ValueInspector* m_inspector;
    models::ValueTableModel* m_tableModel;
    QByteArray m_key;
    keyspace::NodeId m_node = keyspace::InvalidNode;
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
};

} // namespace keylens::ui
