#pragma once

#include <QWidget>

class QLineEdit;

namespace keylens::ui {

// A file or directory path: a line edit and a "…" button that opens the chooser on it.
class PathField : public QWidget
{
    Q_OBJECT
public:
    enum class Kind { File, Directory };

    PathField(const QString& title, const QString& placeholder, Kind kind, QWidget* parent = nullptr);

    QString path() const; // trimmed
    void setPath(const QString& path);
    QLineEdit* edit() const { return m_edit; }

private:
    QLineEdit* m_edit;
};

} // namespace keylens::ui
