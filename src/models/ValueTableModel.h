#pragma once

#include "inspect/KeyReader.h"
#include "keyspace/KeyType.h"

#include <QAbstractTableModel>

#include <vector>

namespace keylens::models {

class ValueInspector;

// The elements of one hash, list, set, sorted set or stream, fetched a page at a time as the view
// scrolls (canFetchMore/fetchMore), so a key of a million elements costs the server one small command
// per page and the window only what it shows. A search (MATCH) or a sorted set's order starts it over.
class ValueTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int PageSize = 1000;
    enum Role { RawBytesRole = Qt::UserRole + 1 }; // the element's exact bytes (QByteArray)

    explicit ValueTableModel(ValueInspector* inspector, QObject* parent = nullptr);

    // Starts over with another key: clears the rows and asks for the first page.
    void setKey(const QByteArray& key, keyspace::KeyType type, std::uint64_t expectedElements,
                const inspect::ValueQuery& query = {});
    // Starts the same key over with a search or another order.
    void setQuery(const inspect::ValueQuery& query);
    const inspect::ValueQuery& query() const { return m_query; }
    void clear();

    // Reads on, page after page, until the last element or `maxRows` rows are loaded (Ctrl+End: a view only asks
    // for the next page when it is scrolled to the bottom, so the end of 8,000 elements took 8 presses).
    // reachedEnd() says when it stops.
    void fetchToEnd(std::uint64_t maxRows = 200'000);
    bool isFetchingToEnd() const { return m_fetchToEnd; }

    bool isComplete() const { return m_done; }
    bool isLoading() const { return m_loading; }
    std::uint64_t expectedElements() const { return m_expected; }
    const QString& lastError() const { return m_error; }
    // The row's element as read, for an edit of it; null past the rows loaded.
    const inspect::ValueRow* rowAt(int row) const
    {
        return row >= 0 && std::size_t(row) < m_rows.size() ? &m_rows[std::size_t(row)] : nullptr;
    }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

Q_SIGNALS:
    void pageLoaded(); // rows arrived, or the last page did
    void failed(const QString& error);
    void reachedEnd(); // fetchToEnd() is done: the last page came, the limit was met, or reading failed

private:
    void takePage(const inspect::ValuePage& page);
    void restart();
    void stopFetchingToEnd();

    ValueInspector* m_inspector;
    QByteArray m_key;
    keyspace::KeyType m_type = keyspace::KeyType::Unknown;
    inspect::ValueQuery m_query;
    std::vector<inspect::ValueRow> m_rows;
    QByteArray m_position;
    std::uint64_t m_expected = 0;
    std::uint64_t m_request = 0;
    bool m_done = true;
    bool m_loading = false;
    bool m_fetchToEnd = false;
    std::uint64_t m_fetchLimit = 0;
    QString m_error;
};

} // namespace keylens::models
