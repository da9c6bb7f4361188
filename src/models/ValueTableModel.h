#pragma once

#include "inspect/KeyReader.h"
#include "keyspace/KeyType.h"

#include <QAbstractTableModel>

#include <vector>

namespace keylens::models {

class ValueInspector;

// The elements of one hash, list, set, sorted set or stream, fetched a page at a time as the view
// scrolls (canFetchMore/fetchMore), so a key of a million elements costs the server one small command
// per page and the window only what it shows.
class ValueTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int PageSize = 1000;
    enum Role { RawBytesRole = Qt::UserRole + 1 }; // the element's exact bytes (QByteArray)

    explicit ValueTableModel(ValueInspector* inspector, QObject* parent = nullptr);

    // Starts over with another key: clears the rows and asks for the first page.
    void setKey(const QByteArray& key, keyspace::KeyType type, std::uint64_t expectedElements);
    void clear();

    bool isComplete() const { return m_done; }
    bool isLoading() const { return m_loading; }
    std::uint64_t expectedElements() const { return m_expected; }
    const QString& lastError() const { return m_error; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

Q_SIGNALS:
    void pageLoaded(); // rows arrived, or the last page did
    void failed(const QString& error);

private:
    void takePage(const inspect::ValuePage& page);

    ValueInspector* m_inspector;
    QByteArray m_key;
    keyspace::KeyType m_type = keyspace::KeyType::Unknown;
    std::vector<inspect::ValueRow> m_rows;
    QByteArray m_position;
    std::uint64_t m_expected = 0;
    std::uint64_t m_request = 0;
    bool m_done = true;
    bool m_loading = false;
    QString m_error;
};

} // namespace keylens::models
