// probe.cpp — the C++ twin of probe.c: a program outside retrodb that uses
// its installed library (whose headers declare C linkage) to open a
// Dots-and-Boxes database, take a position as line names or as a diagram
// file, and print its value and the value of every move.
//
//   c++ probe.cpp $(pkg-config --cflags --libs retrodb) -o probe
//   ./probe DIR [LINE ...]    the position with these lines drawn (the
//                             start position's lines always are)
//   ./probe DIR -f FILE       the position drawn in FILE (a diagram)
//
// Output as probe.c's: "value V", then "LINE V" for every open line.
// Exit status: 0 done, 1 failure, 2 bad input.
#include <cstdint>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include <retrodb/probe.h>

namespace {

// A failed call of the library, with its status and message.
struct failure : std::runtime_error {
    rdb_status status;
    failure(rdb_status st, const std::string &msg) : std::runtime_error(msg), status(st) {}
};

void check(rdb_status st, const rdb_error &err)
{
    if (st != RDB_OK)
        throw failure(st, err.msg);
}

// The handle closes itself, whatever happens.
struct closer {
    void operator()(rdb_probe *p) const { rdb_probe_close(p); }
};
using probe_handle = std::unique_ptr<rdb_probe, closer>;

probe_handle open_database(const std::string &dir)
{
    rdb_error err;
    rdb_probe *p = nullptr;
    check(rdb_probe_open(dir.c_str(), &p, &err), err);
    return probe_handle(p);
}

std::string line_name(const rdb_db_info &info, int line)
{
    char name[RDB_LINE_NAME_MAX];
    rdb_error err;
    check(rdb_dots_line_name(info.rows, info.cols, line, name, sizeof name, &err), err);
    return name;
}

// The position the command line gives: a diagram file after -f, else line
// names, on top of the database's start.
std::uint64_t read_position(const rdb_db_info &info, int argc, char **argv)
{
    rdb_error err;
    std::uint64_t lines = 0;
    if (argc == 4 && std::string(argv[2]) == "-f") {
        std::ifstream in(argv[3]);
        if (!in)
            throw failure(RDB_E_IO, std::string("cannot read '") + argv[3] + "'");
        std::stringstream text;
        text << in.rdbuf();
        int rows, cols;
        check(rdb_dots_parse_diagram(text.str().c_str(), argv[3], &rows, &cols, &lines, &err),
              err);
        if (rows != info.rows || cols != info.cols)
            throw failure(RDB_E_INPUT, std::string("'") + argv[3] + "' is another board");
        return lines;
    }
    std::string names;
    for (int i = 2; i < argc; i++)
        names += std::string(argv[i]) + " ";
    check(rdb_dots_parse_lines(info.rows, info.cols, names.c_str(), &lines, &err), err);
    return lines | info.start;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2 || (argc > 2 && std::string(argv[2]) == "-f" && argc != 4)) {
        std::cerr << "usage: probe DIR [LINE ...] | probe DIR -f FILE\n";
        return 2;
    }
    try {
        probe_handle p = open_database(argv[1]);
        rdb_db_info info;
        rdb_probe_info(p.get(), &info);
        if (std::string(info.game) != "dots")
            throw failure(RDB_E_INPUT, std::string("'") + argv[1] + "' is not a Dots-and-Boxes database");
        std::uint64_t lines = read_position(info, argc, argv);
        rdb_dots_answer a;
        rdb_error err;
        check(rdb_probe_moves(p.get(), lines, &a, &err), err);
        std::cout << "value " << a.value << "\n";
        for (int i = 0; i < a.nmoves; i++)
            std::cout << line_name(info, a.line[i]) << " " << a.move_value[i] << "\n";
    } catch (const failure &f) {
        std::cerr << "probe: " << f.what() << "\n";
        return f.status == RDB_E_INPUT ? 2 : 1;
    }
    return 0;
}
