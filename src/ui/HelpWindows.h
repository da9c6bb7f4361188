#pragma once

#include <QDialog>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <utility>
#include <vector>

class QLabel;
class QMainWindow;
class QPushButton;

namespace keylens::ui {

// The keyboard shortcuts of a window: every menu action that has one (so the list cannot drift from the
// actions), then the keys that work inside a view rather than through an action.
QList<std::pair<QString, QString>> windowShortcuts(const QMainWindow& window);

// Help > Keyboard shortcuts.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    ShortcutsDialog(const QList<std::pair<QString, QString>>& shortcuts, QWidget* parent = nullptr);
};

// Help > README: the README this build came with, rendered (it is built into the program, so it is there
// offline and in a package).
class ReadmeDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ReadmeDialog(QWidget* parent = nullptr);
    QString text() const; // for tests
private:
    QString m_text;
};

// Help > What am I looking at?: a few steps, each outlining one part of the window and saying what it shows.
class WindowTour : public QObject
{
    Q_OBJECT
public:
    struct Step
    {
        QPointer<QWidget> part;
        QString title;
        QString text;
    };

    WindowTour(QMainWindow* window, std::vector<Step> steps);
    ~WindowTour() override;

    void show(std::size_t step);
    std::size_t currentStep() const { return m_current; }
    std::size_t stepCount() const { return m_steps.size(); }
    QWidget* highlighted() const; // for tests: the part outlined now
    QString currentTitle() const;

Q_SIGNALS:
    void finished();

private:
    QMainWindow* m_window;
    std::vector<Step> m_steps;
    std::size_t m_current = 0;
    QWidget* m_outline;
    QWidget* m_card;
    QLabel* m_title;
    QLabel* m_text;
    QPushButton* m_back;
    QPushButton* m_next;
};

// The parts of the main window a tour shows, and what it says of each.
struct WindowParts
{
    QWidget* connectionBar;
    QWidget* filter;
    QWidget* tree;
    QWidget* side; // details, charts, treemap, server
    QWidget* findings;
    QWidget* statusBar;
};
std::vector<WindowTour::Step> windowTourSteps(const WindowParts& parts);

} // namespace keylens::ui
