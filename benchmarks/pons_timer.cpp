// Times Pascal Pons' Connect Four solver position by position, inside one process, so
// that sets of positions solved in microseconds can be compared with perfectplay's
// search (benchmarks/connect4_search.py --pons-timer). Reads one position a line from
// standard input (Pons' notation: columns numbered from 1), writes "SCORE SECONDS" a
// line: the score of Solver::solve (strong, as his own program) and the seconds that
// call took by std::chrono::steady_clock. One Solver, never reset, no opening book, as
// his program reads its test sets. Not part of the package: built against a checkout of
// github.com/PascalPons/connect4:
//
//   g++ -std=c++11 -O3 -DNDEBUG -I PONS benchmarks/pons_timer.cpp PONS/Solver.cpp \
//       -o pons_timer
// (the flags of his Makefile). His solver is built for one board, WIDTH and HEIGHT in his
// Position.hpp (7x6); for Steininger's 9x5 sets build a copy with those two constants set to
// 9 and 5 (they fit his 64-bit board). `pons_timer --board` prints the board it was built
// for ("7x6"), which the benchmark checks against its --board.
#include <chrono>
#include <iostream>
#include <string>

#include "Solver.hpp"

int main(int argc, char** argv) {
  using GameSolver::Connect4::Position;
  if (argc == 2 && std::string(argv[1]) == "--board") {
    std::cout << Position::WIDTH << "x" << Position::HEIGHT << "\n";
    return 0;
  }
  GameSolver::Connect4::Solver solver;
  std::string line;
  for (int number = 1; std::getline(std::cin, line); number++) {
    GameSolver::Connect4::Position position;
    if (position.play(line) != line.size()) {
      std::cerr << "line " << number << ": not a position: " << line << "\n";
      return 2;
    }
    auto began = std::chrono::steady_clock::now();
    int score = solver.solve(position, false);
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - began;
    std::cout << score << " " << took.count() << "\n";
  }
  return 0;
}
