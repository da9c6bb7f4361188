#pragma once

#include <QCommandLineOption>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

class QCommandLineParser;

namespace keylens::usage {

// A positional argument, as --help and the manual page show it.
struct Argument
{
    QString name;
    QString description;
    QString syntax; // "[URI]", "FILE"
};

// Options several commands take (the connection flags, the scan options): listed once in the manual.
struct OptionGroup
{
    QString title; // "Connection options"
    QList<QCommandLineOption> options;
};

// One command's interface. The command builds its parser from this, and the manual page and the shell
// completions are rendered from it too, so that --help, `man` and Tab never disagree.
struct Command
{
    QString name;        // the subcommand ("scan"); empty for a program without subcommands
    QString summary;     // one line, for the list of commands
    QString description; // the paragraph --help starts with
    QList<Argument> arguments;
    QList<QCommandLineOption> options; // this command's own
    QList<OptionGroup> groups;         // shared with other commands
    // Fixed values of an option (by its longest name), offered by the completions: {"format", {"text", "json"}}.
    QHash<QString, QStringList> choices;

    void addTo(QCommandLineParser& parser) const;
    QList<QCommandLineOption> allOptions() const;
    QString synopsis() const; // "scan [URI] [options]"
};

// A list in the manual: exit codes, environment variables, files, examples.
struct Entry
{
    QString term;
    QString text;
};

struct Program
{
    QString name;        // keylens-cli
    QString summary;     // the NAME line's end: "scan and lint Redis keyspaces"
    QString description; // paragraphs, separated by blank lines
    QList<Command> commands;
    QList<Entry> exitCodes;
    QList<Entry> environment;
    QList<Entry> files;
    QList<Entry> examples;
    QStringList seeAlso; // "keylens(1)"

    bool hasSubcommands() const;
    const Command* command(const QString& name) const;
    // Every shared group once, in the order commands first name them.
    QList<OptionGroup> sharedGroups() const;
    // The plain-text usage a program with subcommands prints for --help.
    QString usageText() const;
};

// An option's longest name ("host" for -h/--host), as the parser and the completions key it.
QString longestName(const QCommandLineOption& option);
// A name as typed: "-h" for a one-letter name, "--host" for a longer one (QCommandLineParser's rule).
QString dashedName(const QString& name);

// The --help every subcommand takes: its parser adds it, the manual page and the completions list it.
QCommandLineOption commandHelpOption();

} // namespace keylens::usage
