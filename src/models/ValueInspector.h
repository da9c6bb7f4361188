#pragma once

#include "base/JobRunner.h"
#include "edit/KeyEdit.h"
#include "inspect/KeyReader.h"
#include "inspect/PayloadDecoder.h"
#include "redis/ConnectionOptions.h"
#include "redis/ServerStatus.h"

#include <QObject>

#include <memory>

namespace keylens::models {

// Reads single keys for the details pane off the GUI thread, so a slow server or a big value never freezes the
// window. What the user asks for (a key, a page, the server's status, a delete) runs on one thread and connection;
// the background length checks after a scan (up to 100,000 keys) on another, so they never wait ahead of the
// user's next click. Requests are jobs (base::JobRunner): a newer request of the same kind cancels the older one,
// whose blocked read ends within 50 ms, and only the latest is delivered.
class ValueInspector : public QObject
{
    Q_OBJECT
public:
    explicit ValueInspector(QObject* parent = nullptr);
    ~ValueInspector() override; // cancels what runs and joins both threads, within about 50 ms

    // Later requests use this server; what runs for the previous one is cancelled. Connections open on first use.
    void setConnection(const redis::ConnectionOptions& options);

    struct Overview
    {
        std::uint64_t request = 0;
        inspect::KeyOverview key;
        inspect::DecodedValue value; // for strings
        QString error;               // the connection failed: nothing else is filled in
    };
    struct Page
    {
        std::uint64_t request = 0;
        QByteArray key;
        inspect::ValuePage page;
        QString error;
    };

    std::uint64_t requestOverview(const QByteArray& key);
    std::uint64_t requestPage(const QByteArray& key, keyspace::KeyType type, const inspect::ValueQuery& query,
                              const QByteArray& position, int size);
    struct Status
    {
        std::uint64_t request = 0;
        redis::ServerStatus status;
        QString error; // the connection failed
    };
    // INFO, section by section, for the server panel.
    std::uint64_t requestServerStatus();

    struct Edit
    {
        std::uint64_t request = 0;
        edit::KeyEdit change;
        edit::EditOutcome outcome;
        QString error; // the connection failed, or refused the write (read-only): nothing was applied
        // The key as it is after the edit (nothing: gone), and for a rename or duplicate in this database the new
        // key: for the store to follow.
        std::optional<keyspace::KeyInfo> key;
        std::optional<keyspace::KeyInfo> newKey;
    };
    // One edit (edit::applyEdit), then the facts of the keys it touched. Never superseded by a later request.
    std::uint64_t requestEdit(const edit::KeyEdit& change);

    // The keys' values as JSON lines in `path` (inspect::exportValues), on the background connection, so the details
    // pane keeps answering; progress() and exportDone() report. A newer export cancels this one.
    void requestExport(std::vector<QByteArray> keys, const QString& path);

    // UNLINK (which a read-only connection's write gate refuses before sending it). The caller asks the user first.
    std::uint64_t requestDelete(const QByteArray& key);

Q_SIGNALS:
    void overviewReady(const keylens::models::ValueInspector::Overview& overview);
    void pageReady(const keylens::models::ValueInspector::Page& page);
    void serverStatusReady(const keylens::models::ValueInspector::Status& status);
    void deleteDone(std::uint64_t request, const QByteArray& key, const QString& error);
    void editDone(const keylens::models::ValueInspector::Edit& edit);
    void exportProgress(std::uint64_t keysDone, std::uint64_t keys);
    void exportDone(const QString& path, const QString& summary, bool ok);

private:
    class Link;
    enum Lane { Overviews = 1, Pages, Statuses, Exports };
    std::shared_ptr<Link> m_userLink;       // used only on m_userJobs's thread
    std::shared_ptr<Link> m_backgroundLink; // used only on m_backgroundJobs's thread
    base::JobRunner m_userJobs;
    base::JobRunner m_backgroundJobs;
};

} // namespace keylens::models
