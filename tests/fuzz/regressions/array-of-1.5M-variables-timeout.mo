model Arr3  Real a[1* 1555552];
end Arr3;