model StrIf
  Real x(start = 0, fixue) = if x > 1 then "a" else "b";
end StrIf;