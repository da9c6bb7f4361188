#pragma once

#include "models/ConsoleSession.h"

#include <QStringList>
#include <QWidget>

class QCompleter;
class QLabel;
class QLineEdit;
class QStringListModel;
class QTreeWidget;
class QTreeWidgetItem;

namespace keylens::ui {

// A command console on the current connection and database: redis-cli's quoting, history (Up/Down), completion of
// command names (COMMAND DOCS), replies as trees. Writes pass the connection's write gate, so a read-only
// connection refuses them and says so; on a production-tagged connection a dangerous command (FLUSHALL, KEYS,
// CONFIG SET…) asks first.
class ConsoleView : public QWidget
{
    Q_OBJECT
public:
    explicit ConsoleView(QWidget* parent = nullptr);

    void setConnection(const redis::ConnectionOptions& options, bool production, const QString& name);
    // Runs a line as typed (what Enter does). Returns false when it was not sent: empty, unbalanced quotes, or a
    // dangerous command the user declined.
    bool runLine(const QString& line);
    // The window could not reach the server set last: said below its separator, so that no one takes it for there.
    void serverUnreachable(const QString& why);

    QLineEdit* input() const { return m_input; }
    QTreeWidget* output() const { return m_output; }
    const QStringList& history() const { return m_history; }
    QStringList commandNames() const;

Q_SIGNALS:
    void replied(); // a reply (or a refusal) was shown
    // A write changed these keys (nothing: gone), for the store to follow.
    void keysWritten(const std::vector<std::pair<QByteArray, std::optional<keylens::keyspace::KeyInfo>>>& keys);

private:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void show(const models::ConsoleSession::Result& result);
    void browseHistory(int step);

    models::ConsoleSession* m_session;
    QTreeWidget* m_output;
    QLineEdit* m_input;
    QLabel* m_where;
    QStringListModel* m_names;
    QCompleter* m_completer;
    QStringList m_history;
    int m_historyAt = 0;
    bool m_production = false;
    QString m_name;
    int m_db = 0; // with m_name: a change of server or database puts a separator in the output
};

} // namespace keylens::ui
